/**
 * Alertmanager's web configuration file (`--web.config.file`, Prometheus exporter-toolkit's
 * format as Alertmanager 0.25 reads it), decoded and checked. Plain data: it is posted to every
 * HTTP thread.
 */
export type ClientAuthType = 'NoClientCert' | 'RequestClientCert' | 'RequireAnyClientCert' | 'VerifyClientCertIfGiven' | 'RequireAndVerifyClientCert';

export type TlsVersionName = 'TLS10' | 'TLS11' | 'TLS12' | 'TLS13';

export interface TlsServerConfig {
  /** Paths as written, resolved against the configuration file's directory. */
  certFile: string;
  keyFile: string;
  clientAuthType: ClientAuthType;
  clientCaFile: string | undefined;
  minVersion: TlsVersionName;
  maxVersion: TlsVersionName;
  /** Go cipher suite names, in the order given; empty for the defaults. */
  cipherSuites: string[];
  /** Accepted as upstream does; Go has ignored it since 1.18, and so does this service. */
  preferServerCipherSuites: boolean;
  /** Go curve names (`CurveP256`, `X25519`, ...); empty for the defaults. */
  curvePreferences: string[];
  /** A client certificate must carry one of these SANs (DNS, e-mail, IP or URI); undefined: any. */
  clientAllowedSans: string[] | undefined;
}

export interface WebConfig {
  /** Undefined: plain HTTP. */
  tls: TlsServerConfig | undefined;
  /** `http_server_config.http2`: accepted; the HTTP port speaks HTTP/1.1 whatever it says. */
  http2: boolean;
  /** `http_server_config.headers`, added to every response of the HTTP port. */
  headers: Array<[string, string]>;
  /** `basic_auth_users`: user and bcrypt hash, in file order. */
  users: Array<[string, string]>;
}
