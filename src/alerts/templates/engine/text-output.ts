/** text/template's output: text as written, values as fmt prints them. */
import type { Output } from './exec.js';
import type { PipeNode } from './nodes.js';
import { ExecError, formatValue, GoFloat, type GoValue } from './values.js';

export class TextOutput implements Output {
  private readonly parts: string[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  text(text: string): void {
    this.append(text);
  }

  action(pipe: PipeNode, evaluate: (pipe: PipeNode) => GoValue): void {
    this.append(printable(evaluate(pipe)));
  }

  private append(text: string): void {
    this.size += text.length;
    if (this.size > this.maxBytes) throw new ExecError(`output larger than ${this.maxBytes} bytes`);
    this.parts.push(text);
  }

  result(): string {
    return this.parts.join('');
  }
}

/** text/template's printValue: fmt.Print of the value, `<no value>` for an invalid one. */
export function printable(value: GoValue): string {
  if (value !== null && typeof value === 'object' && !(value instanceof GoFloat) && value.type.methods['String'] === undefined && value.type.kind === 'opaque' && value.type.stringer === undefined) {
    throw new ExecError(`can't print value of type ${value.type.name}`);
  }
  return formatValue(value);
}
