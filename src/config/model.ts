/** One configuration source document: a YAML file or an xDS resource. */
export interface ConfigSource {
  /** Name used as the prefix of error messages, e.g. `config.basic.yaml`. */
  name: string;
  text: string;
}
