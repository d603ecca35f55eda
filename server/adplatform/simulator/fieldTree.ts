/**
 * Graph's `fields` parameter as a tree: `name,campaign{name,status},ads.limit(2){name},
 * insights.date_preset(last_7d){spend,actions}` → a field per name, each with its modifiers
 * (`limit` → `2`) and the fields asked of it (`{…}`), nested to any depth.
 */

export interface FieldNode {
  name: string;
  /** `.limit(2)` → `{limit: '2'}`; the text inside the parentheses, as given. */
  modifiers: Record<string, string>;
  /** The fields inside `{…}`, when given. */
  children?: FieldNode[];
}

class FieldSyntaxError extends Error {}

/** The tree of a `fields` parameter, or the reason it cannot be read. */
export function parseFields(text: string): FieldNode[] | { error: string } {
  try {
    const parser = new Parser(text);
    const fields = parser.list();
    if (!parser.done()) throw new FieldSyntaxError(`unexpected '${text[parser.at]}' at position ${parser.at}`);
    return fields;
  } catch (error) {
    if (error instanceof FieldSyntaxError) return { error: error.message };
    throw error;
  }
}

/** The names of a tree's top-level fields. */
export const fieldNames = (fields: readonly FieldNode[]): string[] => fields.map((field) => field.name);

class Parser {
  at = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    this.skipSpace();
    return this.at >= this.text.length;
  }

  list(): FieldNode[] {
    const fields: FieldNode[] = [];
    for (;;) {
      this.skipSpace();
      if (this.peek() === '}' || this.at >= this.text.length) break;
      fields.push(this.field());
      this.skipSpace();
      if (this.peek() !== ',') break;
      this.at += 1;
    }
    return fields;
  }

  private field(): FieldNode {
    const node: FieldNode = { name: this.name(), modifiers: {} };
    while (this.peek() === '.') {
      this.at += 1;
      const modifier = this.name();
      if (this.peek() !== '(') throw new FieldSyntaxError(`modifier ${modifier} of ${node.name} needs (…)`);
      node.modifiers[modifier] = this.parenthesised();
    }
    this.skipSpace();
    if (this.peek() === '{') {
      this.at += 1;
      node.children = this.list();
      this.skipSpace();
      if (this.peek() !== '}') throw new FieldSyntaxError(`missing } after the fields of ${node.name}`);
      this.at += 1;
    }
    return node;
  }

  private name(): string {
    this.skipSpace();
    const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.at));
    if (!match) throw new FieldSyntaxError(`expected a field name at position ${this.at}`);
    this.at += match[0].length;
    return match[0];
  }

  /** The text between balanced parentheses (brackets, braces and quotes inside are kept whole). */
  private parenthesised(): string {
    const start = this.at + 1;
    let depth = 0;
    let quote: string | undefined;
    for (; this.at < this.text.length; this.at += 1) {
      const char = this.text[this.at]!;
      if (quote) {
        if (char === quote) quote = undefined;
      } else if (char === '"' || char === "'") quote = char;
      else if ('([{'.includes(char)) depth += 1;
      else if (')]}'.includes(char)) {
        depth -= 1;
        if (depth === 0) {
          this.at += 1;
          return this.text.slice(start, this.at - 1);
        }
      }
    }
    throw new FieldSyntaxError('unbalanced parentheses');
  }

  private peek(): string | undefined {
    return this.text[this.at];
  }

  private skipSpace(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at += 1;
  }
}
