/**
 * The parse tree of Go text/template (text/template/parse/node.go), with each node's `String()`
 * as Go prints it in execution errors (`at <.Labels.foo>`).
 */

interface At {
  /** Offset in the template text. */
  pos: number;
}

export type Node = TextNode | ActionNode | IfNode | RangeNode | WithNode | TemplateNode | BreakNode | ContinueNode | ListNode;

export interface ListNode extends At {
  kind: 'list';
  nodes: Node[];
}
export interface TextNode extends At {
  kind: 'text';
  text: string;
}
export interface ActionNode extends At {
  kind: 'action';
  pipe: PipeNode;
}
export interface BranchNode extends At {
  pipe: PipeNode;
  list: ListNode;
  elseList: ListNode | undefined;
}
export interface IfNode extends BranchNode {
  kind: 'if';
}
export interface RangeNode extends BranchNode {
  kind: 'range';
}
export interface WithNode extends BranchNode {
  kind: 'with';
}
export interface TemplateNode extends At {
  kind: 'template';
  name: string;
  pipe: PipeNode | undefined;
}
export interface BreakNode extends At {
  kind: 'break';
}
export interface ContinueNode extends At {
  kind: 'continue';
}

export interface PipeNode extends At {
  kind: 'pipe';
  /** `$x :=` declares, `$x =` assigns. */
  isAssign: boolean;
  decl: VariableNode[];
  cmds: CommandNode[];
}
export interface CommandNode extends At {
  kind: 'command';
  args: ArgNode[];
}

export type ArgNode = FieldNode | VariableNode | ChainNode | IdentifierNode | DotNode | NilNode | BoolNode | NumberNode | StringNode | PipeNode;

export interface FieldNode extends At {
  kind: 'field';
  /** `.Labels.foo` is ['Labels', 'foo']. */
  ident: string[];
}
export interface VariableNode extends At {
  kind: 'variable';
  /** `$a.Labels` is ['$a', 'Labels']. */
  ident: string[];
}
export interface ChainNode extends At {
  kind: 'chain';
  node: ArgNode;
  field: string[];
}
export interface IdentifierNode extends At {
  kind: 'identifier';
  name: string;
}
export interface DotNode extends At {
  kind: 'dot';
}
export interface NilNode extends At {
  kind: 'nil';
}
export interface BoolNode extends At {
  kind: 'bool';
  value: boolean;
}
export interface NumberNode extends At {
  kind: 'number';
  text: string;
  /** What the constant can be, as Go's NumberNode says (IsInt, IsFloat). */
  int: number | undefined;
  float: number | undefined;
}
export interface StringNode extends At {
  kind: 'string';
  /** The literal as written, quotes included. */
  quoted: string;
  text: string;
}

/** Go's Node.String() for the nodes an error can name. */
export function nodeString(node: ArgNode | CommandNode | Node): string {
  switch (node.kind) {
    case 'field':
      return node.ident.map((part) => '.' + part).join('');
    case 'variable':
      return node.ident.join('.');
    case 'chain':
      return (node.node.kind === 'pipe' ? `(${nodeString(node.node)})` : nodeString(node.node)) + node.field.map((part) => '.' + part).join('');
    case 'identifier':
      return node.name;
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'bool':
      return String(node.value);
    case 'number':
      return node.text;
    case 'string':
      return node.quoted;
    case 'pipe': {
      const decl = node.decl.length > 0 ? `${node.decl.map(nodeString).join(', ')} ${node.isAssign ? '=' : ':='} ` : '';
      return decl + node.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return node.args.map((arg) => (arg.kind === 'pipe' ? `(${nodeString(arg)})` : nodeString(arg))).join(' ');
    case 'action':
      return `{{${nodeString(node.pipe)}}}`;
    case 'text':
      return node.text;
    case 'template':
      return node.pipe === undefined ? `{{template "${node.name}"}}` : `{{template "${node.name}" ${nodeString(node.pipe)}}}`;
    case 'list':
      return node.nodes.map(nodeString).join('');
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
    default:
      return `{{${node.kind} ${nodeString(node.pipe)}}}`;
  }
}
