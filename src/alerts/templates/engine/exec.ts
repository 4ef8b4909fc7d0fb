/**
 * Go text/template's executor (text/template/exec.go): walks a tree over a Go value, with Go's
 * variable scoping, method-before-field lookup, argument type checks and error texts
 * (`template: x.tmpl:3:5: executing "x.tmpl" at <.Foo>: can't evaluate field Foo in type
 * template.Alert`). Output goes to an `Output`, which html() replaces with a contextual escaper.
 */
import { nodeString, type ArgNode, type CommandNode, type ListNode, type Node, type NumberNode, type PipeNode } from './nodes.js';
import type { Tree } from './parser.js';
import {
  assignable,
  CallError,
  ExecError,
  formatValue,
  GoFloat,
  GoMap,
  GoSlice,
  GoStruct,
  isTrue,
  compareBytes,
  typeName,
  type GoFunction,
  type GoMethod,
  type GoValue,
  type ParamType,
} from './values.js';

/** Where a template's output goes: its own text, and what its printing actions print. */
export interface Output {
  text(text: string): void;
  /**
   * An action that prints: `evaluate` runs a pipeline (the action's own, or one html/template
   * rewrote from it) and gives its value, which the output prints its way.
   */
  action(pipe: PipeNode, evaluate: (pipe: PipeNode) => GoValue): void;
}

export interface ExecLimits {
  /** Nested `template` calls, as Go's maxExecDepth. */
  maxDepth: number;
  /** Nodes walked and calls made in one execution. */
  maxSteps: number;
}

/** The value of a command that has no piped-in value (Go's missingVal). */
const MISSING: unique symbol = Symbol('missing');
type Final = GoValue | typeof MISSING;

class Break {}
class Continue {}
const BREAK = new Break();
const CONTINUE = new Continue();

interface Variable {
  name: string;
  value: GoValue;
}

/** The execution failed; `message` is Go's full error text. */
export class TemplateExecError extends Error {}

export class Executor {
  private tree: Tree;
  private node: ArgNode | CommandNode | Node | undefined;
  private vars: Variable[] = [];
  private depth = 0;
  private steps = 0;

  constructor(
    private readonly lookup: (name: string) => Tree | undefined,
    private readonly functions: (name: string) => GoFunction | undefined,
    private readonly out: Output,
    private readonly limits: ExecLimits,
    start: Tree,
  ) {
    this.tree = start;
  }

  /** Runs the start tree with `dot` as its data; throws TemplateExecError. */
  run(dot: GoValue): void {
    this.vars = [{ name: '$', value: dot }];
    try {
      this.walk(dot, this.tree.root);
    } catch (error) {
      if (error instanceof ExecError) throw new TemplateExecError(this.message(error.message));
      throw error;
    }
  }

  // ---- errors ----

  private message(text: string): string {
    const node = this.node;
    if (node === undefined) return `template: ${this.tree.name}: ${text}`;
    const before = this.tree.text.slice(0, node.pos);
    const lineStart = before.lastIndexOf('\n') + 1;
    const line = 1 + (before.match(/\n/g)?.length ?? 0);
    const column = Buffer.byteLength(before.slice(lineStart), 'utf8');
    let context = nodeString(node);
    if ([...context].length > 20) context = `${[...context].slice(0, 20).join('')}...`;
    return `template: ${this.tree.parseName}:${line}:${column}: executing "${this.tree.name}" at <${context}>: ${text}`;
  }

  private fail(text: string): never {
    throw new ExecError(text);
  }

  private at(node: ArgNode | CommandNode | Node): void {
    this.node = node;
  }

  private step(): void {
    if (++this.steps > this.limits.maxSteps) this.fail(`exceeded the limit of ${this.limits.maxSteps} steps`);
  }

  // ---- variables ----

  private varValue(name: string): GoValue {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const variable = this.vars[i] as Variable;
      if (variable.name === name) return variable.value;
    }
    this.fail(`undefined variable: ${name}`);
  }

  private setVar(name: string, value: GoValue): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const variable = this.vars[i] as Variable;
      if (variable.name === name) {
        variable.value = value;
        return;
      }
    }
    this.fail(`undefined variable: ${name}`);
  }

  private setTopVar(n: number, value: GoValue): void {
    (this.vars[this.vars.length - n] as Variable).value = value;
  }

  // ---- walking ----

  private walk(dot: GoValue, node: Node): void {
    this.step();
    this.at(node);
    switch (node.kind) {
      case 'action':
        if (node.pipe.decl.length > 0) this.evalPipeline(dot, node.pipe);
        else
          this.out.action(node.pipe, (pipe) => {
            const value = this.evalPipeline(dot, pipe);
            this.at(node);
            return value;
          });
        return;
      case 'break':
        throw BREAK;
      case 'continue':
        throw CONTINUE;
      case 'if':
      case 'with':
        return this.walkIfOrWith(dot, node.kind, node.pipe, node.list, node.elseList);
      case 'list':
        for (const child of node.nodes) this.walk(dot, child);
        return;
      case 'range':
        return this.walkRange(dot, node.pipe, node.list, node.elseList);
      case 'template':
        return this.walkTemplate(dot, node.name, node.pipe);
      case 'text':
        this.out.text(node.text);
        return;
    }
  }

  private walkIfOrWith(dot: GoValue, kind: 'if' | 'with', pipe: PipeNode, list: ListNode, elseList: ListNode | undefined): void {
    const mark = this.vars.length;
    try {
      const value = this.evalPipeline(dot, pipe);
      if (isTrue(value)) this.walk(kind === 'with' ? value : dot, list);
      else if (elseList !== undefined) this.walk(dot, elseList);
    } finally {
      this.vars.length = mark;
    }
  }

  private walkRange(dot: GoValue, pipe: PipeNode, list: ListNode, elseList: ListNode | undefined): void {
    const outer = this.vars.length;
    try {
      const value = this.evalPipeline(dot, pipe);
      const mark = this.vars.length;
      const iteration = (index: GoValue, element: GoValue): boolean => {
        const [first, second] = pipe.decl;
        if (first !== undefined) {
          if (pipe.isAssign) this.setVar(first.ident[0] as string, second !== undefined ? index : element);
          else this.setTopVar(1, element);
        }
        if (second !== undefined) {
          if (pipe.isAssign) this.setVar(second.ident[0] as string, element);
          else this.setTopVar(2, index);
        }
        try {
          this.walk(element, list);
        } catch (signal) {
          if (signal === BREAK) return false;
          if (signal !== CONTINUE) throw signal;
        } finally {
          this.vars.length = mark;
        }
        return true;
      };
      if (value instanceof GoSlice) {
        if (value.items.length > 0) {
          for (let i = 0; i < value.items.length; i++) if (!iteration(i, value.items[i])) break;
          return;
        }
      } else if (value instanceof GoMap) {
        if (value.entries.size > 0) {
          for (const key of [...value.entries.keys()].sort(compareBytes)) if (!iteration(key, value.entries.get(key))) break;
          return;
        }
      } else if (value !== undefined && value !== null) {
        this.fail(`range can't iterate over ${formatValue(value, true)}`);
      }
      if (elseList !== undefined) this.walk(dot, elseList);
    } finally {
      this.vars.length = outer;
    }
  }

  private walkTemplate(dot: GoValue, name: string, pipe: PipeNode | undefined): void {
    const node = this.node as Node;
    const tree = this.lookup(name);
    if (tree === undefined) this.fail(`template "${name}" not defined`);
    if (this.depth >= this.limits.maxDepth) this.fail(`exceeded maximum template depth (${this.limits.maxDepth})`);
    const newDot = pipe === undefined ? undefined : this.evalPipeline(dot, pipe);
    const saved = { tree: this.tree, vars: this.vars };
    this.tree = tree;
    this.vars = [{ name: '$', value: newDot }];
    this.depth++;
    // An error inside the called template leaves it current, so that the error names it.
    this.walk(newDot, tree.root);
    this.depth--;
    this.tree = saved.tree;
    this.vars = saved.vars;
    this.node = node;
  }

  // ---- pipelines and commands ----

  private evalPipeline(dot: GoValue, pipe: PipeNode): GoValue {
    this.at(pipe);
    let value: Final = MISSING;
    for (const cmd of pipe.cmds) value = this.evalCommand(dot, cmd, value);
    const result = value === MISSING ? undefined : value;
    for (const variable of pipe.decl) {
      const name = variable.ident[0] as string;
      if (pipe.isAssign) this.setVar(name, result);
      else this.vars.push({ name, value: result });
    }
    return result;
  }

  private notAFunction(args: readonly ArgNode[], final: Final): void {
    if (args.length > 1 || final !== MISSING) this.fail(`can't give argument to non-function ${nodeString(args[0] as ArgNode)}`);
  }

  private evalCommand(dot: GoValue, cmd: CommandNode, final: Final): GoValue {
    this.step();
    const first = cmd.args[0] as ArgNode;
    switch (first.kind) {
      case 'field':
        this.at(first);
        return this.evalFieldChain(dot, dot, first, first.ident, cmd.args, final);
      case 'chain': {
        this.at(first);
        const receiver = this.evalArgValue(dot, first.node);
        return this.evalFieldChain(dot, receiver, first, first.field, cmd.args, final);
      }
      case 'identifier':
        return this.evalFunction(dot, first.name, first, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first);
      case 'variable': {
        this.at(first);
        const value = this.varValue(first.ident[0] as string);
        if (first.ident.length === 1) {
          this.notAFunction(cmd.args, final);
          return value;
        }
        return this.evalFieldChain(dot, value, first, first.ident.slice(1), cmd.args, final);
      }
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.kind) {
      case 'bool':
        return first.value;
      case 'dot':
        return dot;
      case 'nil':
        return this.fail('nil is not a command');
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return first.text;
    }
  }

  /** A term evaluated as an operand of a chain (`(pipeline).Field`, `$x.Field`). */
  private evalArgValue(dot: GoValue, node: ArgNode): GoValue {
    return this.evalArg(dot, 'any', node);
  }

  private idealConstant(node: NumberNode): GoValue {
    this.at(node);
    const isFloatText = /[.eEpP]/.test(node.text) && !/^[+-]?0[xX]/.test(node.text) && !node.text.startsWith("'");
    if (node.float !== undefined && isFloatText) return new GoFloat(node.float);
    if (node.int !== undefined) return node.int;
    if (node.float !== undefined) return new GoFloat(node.float);
    return this.fail(`${node.text} overflows int`);
  }

  private evalFieldChain(dot: GoValue, receiver: GoValue, node: ArgNode, idents: readonly string[], args: readonly ArgNode[], final: Final): GoValue {
    let value = receiver;
    for (let i = 0; i < idents.length - 1; i++) value = this.evalField(dot, idents[i] as string, node, [], MISSING, value);
    return this.evalField(dot, idents[idents.length - 1] as string, node, args, final, value);
  }

  private evalField(dot: GoValue, name: string, node: ArgNode, args: readonly ArgNode[], final: Final, receiver: GoValue): GoValue {
    // With missingkey=zero, as Alertmanager sets it, an invalid receiver gives an invalid value.
    if (receiver === undefined) return undefined;
    if (receiver === null) this.fail(`nil pointer evaluating interface {}.${name}`);
    const method = typeof receiver === 'object' && !(receiver instanceof GoFloat) ? receiver.type.methods[name] : undefined;
    if (method !== undefined) return this.evalCall(dot, method, name, node, args, final, receiver);
    const hasArgs = args.length > 1 || final !== MISSING;
    if (receiver instanceof GoStruct) {
      if (receiver.fields.has(name)) {
        if (hasArgs) this.fail(`${name} has arguments but cannot be invoked as function`);
        return receiver.fields.get(name);
      }
    } else if (receiver instanceof GoMap) {
      if (hasArgs) this.fail(`${name} is not a method but has arguments`);
      // missingkey=zero: a missing key gives the element type's zero value, "" for these maps.
      return receiver.entries.get(name) ?? '';
    }
    this.fail(`can't evaluate field ${name} in type ${typeName(receiver)}`);
  }

  private evalFunction(dot: GoValue, name: string, node: ArgNode, args: readonly ArgNode[], final: Final): GoValue {
    this.at(node);
    if (name === 'and' || name === 'or') return this.evalAndOr(dot, name, node, args, final);
    const fn = this.functions(name);
    if (fn === undefined) this.fail(`"${name}" is not a defined function`);
    return this.evalCall(dot, fn, name, node, args, final, MISSING);
  }

  /** `and` / `or`: the first argument that decides, else the last; later ones are not evaluated. */
  private evalAndOr(dot: GoValue, name: 'and' | 'or', node: ArgNode, args: readonly ArgNode[], final: Final): GoValue {
    const operands = args.slice(1);
    const count = operands.length + (final === MISSING ? 0 : 1);
    if (count < 1) this.fail(`wrong number of args for ${name}: want at least 1 got 0`);
    let value: GoValue = undefined;
    for (const operand of operands) {
      value = this.evalArg(dot, 'any', operand);
      if (truth(value) === (name === 'or')) return value;
    }
    if (final !== MISSING) value = final;
    this.at(node);
    return value;
  }

  private evalCall(dot: GoValue, fn: GoFunction | GoMethod, name: string, node: ArgNode, args: readonly ArgNode[], final: Final, receiver: GoValue | typeof MISSING): GoValue {
    const given = args.slice(1);
    const count = given.length + (final === MISSING ? 0 : 1);
    const params = fn.params;
    const fixed = fn.variadic === true ? params.length - 1 : params.length;
    if (fn.variadic === true) {
      if (count < fixed) this.fail(`wrong number of args for ${name}: want at least ${fixed} got ${given.length}`);
    } else if (count !== params.length) {
      this.fail(`wrong number of args for ${name}: want ${params.length} got ${count}`);
    }
    const paramAt = (i: number): ParamType => (i < fixed ? (params[i] as ParamType) : (params[params.length - 1] as ParamType));
    const values: GoValue[] = given.map((arg, i) => this.evalArg(dot, paramAt(i), arg));
    if (final !== MISSING) values.push(this.validateType(final, paramAt(values.length)));
    this.step();
    try {
      return receiver === MISSING ? (fn as GoFunction).call(values) : (fn as GoMethod).call(receiver, values);
    } catch (error) {
      if (error instanceof CallError) {
        this.at(node);
        this.fail(`error calling ${name}: ${error.message}`);
      }
      throw error;
    }
  }

  private validateType(value: GoValue, param: ParamType): GoValue {
    if (value === undefined) {
      if (param === 'any') return null;
      if (param.startsWith('[]') || param.startsWith('map[')) return null;
      this.fail(`invalid value; expected ${param}`);
    }
    if (value === null && param === 'any') return null;
    if (!assignable(value, param)) this.fail(`wrong type for value; expected ${param}; got ${typeName(value)}`);
    return value;
  }

  private evalArg(dot: GoValue, param: ParamType, node: ArgNode): GoValue {
    this.at(node);
    switch (node.kind) {
      case 'dot':
        return this.validateType(dot, param);
      case 'nil':
        if (param === 'any' || param.startsWith('[]') || param.startsWith('map[')) return null;
        return this.fail(`cannot assign nil to ${param}`);
      case 'field':
        return this.validateType(this.evalFieldChain(dot, dot, node, node.ident, [node], MISSING), param);
      case 'variable': {
        const value = this.varValue(node.ident[0] as string);
        const resolved = node.ident.length === 1 ? value : this.evalFieldChain(dot, value, node, node.ident.slice(1), [node], MISSING);
        return this.validateType(resolved, param);
      }
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, node), param);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, node.name, node, [node], MISSING), param);
      case 'chain': {
        const receiver = this.evalArgValue(dot, node.node);
        this.at(node);
        return this.validateType(this.evalFieldChain(dot, receiver, node, node.field, [node], MISSING), param);
      }
    }
    switch (param) {
      case 'any':
        if (node.kind === 'number') return this.idealConstant(node);
        return node.kind === 'bool' ? node.value : node.text;
      case 'bool':
        if (node.kind === 'bool') return node.value;
        return this.fail(`expected bool; found ${nodeString(node)}`);
      case 'string':
        if (node.kind === 'string') return node.text;
        return this.fail(`expected string; found ${nodeString(node)}`);
      case 'int':
        if (node.kind === 'number' && node.int !== undefined) return node.int;
        return this.fail(`expected integer; found ${nodeString(node)}`);
      case 'float64':
        if (node.kind === 'number' && node.float !== undefined) return new GoFloat(node.float);
        return this.fail(`expected float; found ${nodeString(node)}`);
      default:
        return this.fail(`can't handle ${nodeString(node)} for arg of type ${param}`);
    }
  }
}

/** Go's template truth for `and` / `or`, where an invalid value is simply false. */
function truth(value: GoValue): boolean {
  return value === undefined ? false : isTrue(value);
}
