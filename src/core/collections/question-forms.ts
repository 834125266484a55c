import { z } from 'zod';
import { GridError } from '../common/errors';
import raw from './data/question-forms.json' with { type: 'json' };

/**
 * Question forms (src/core/collections/data/question-forms.json): how a question asks (a quantity, a
 * list, a permission, who acts, the unit) and what an answering article states. Validated and compiled
 * when the module loads: a broken file or pattern stops with a Chinese message naming the field.
 */
const pattern = z.string().min(1);
const schema = z.object({
  $comment: z.string().optional(),
  numeral: pattern,
  asks: z.object({ quantity: pattern, computation: pattern, list: pattern, permission: pattern, agent: pattern }),
  states: z.object({ quantity: pattern, amount: pattern, list: pattern, rule: pattern, agent: pattern }),
  $units: z.string().optional(),
  units: z.array(z.object({ unit: z.string().min(1), asked: pattern, stated: pattern })).min(1),
  $modal_groups: z.string().optional(),
  modal_groups: z.array(z.array(z.string().min(1)).min(2)),
});

const FILE = 'collections/data/question-forms.json';

function bad(field: string, message: string): never {
  throw new GridError('BAD_FILE', `词表 ${FILE} 无效 — ${field}: ${message}`);
}

export interface QuestionForms {
  asks: Record<'quantity' | 'computation' | 'list' | 'permission' | 'agent', RegExp>;
  states: Record<'quantity' | 'amount' | 'list' | 'rule' | 'agent', RegExp>;
  /** In file order: the first unit whose `asked` pattern matches is the one the question asks in. */
  units: { unit: string; asked: RegExp; stated: RegExp }[];
  modalGroups: string[][];
}

/** Validates and compiles the file's content; exported so a broken file's message can be tested. */
export function compileQuestionForms(raw: unknown): QuestionForms {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    bad(i.path.join('.') || '(根)', i.message);
  }
  const data = parsed.data;
  const compile = (field: string, source: string, extra: Record<string, string> = {}): RegExp => {
    const expanded = source.replace(/\{(\w+)\}/g, (m, name: string) => (name === 'numeral' ? data.numeral : (extra[name] ?? m)));
    try {
      return new RegExp(expanded);
    } catch {
      return bad(field, '不是有效的正则表达式');
    }
  };
  const statesQuantity = compile('states.quantity', data.states.quantity);
  return {
    asks: {
      quantity: compile('asks.quantity', data.asks.quantity),
      computation: compile('asks.computation', data.asks.computation),
      list: compile('asks.list', data.asks.list),
      permission: compile('asks.permission', data.asks.permission),
      agent: compile('asks.agent', data.asks.agent),
    },
    states: {
      quantity: statesQuantity,
      amount: compile('states.amount', data.states.amount, { quantity: statesQuantity.source }),
      list: compile('states.list', data.states.list),
      rule: compile('states.rule', data.states.rule),
      agent: compile('states.agent', data.states.agent),
    },
    units: data.units.map((u, i) => ({ unit: u.unit, asked: compile(`units.${i}.asked`, u.asked), stated: compile(`units.${i}.stated`, u.stated) })),
    modalGroups: data.modal_groups,
  };
}

const FORMS = compileQuestionForms(raw);
export const ASKS = FORMS.asks;
export const STATES = FORMS.states;
export const UNITS = FORMS.units;
export const MODAL_GROUPS = FORMS.modalGroups;
