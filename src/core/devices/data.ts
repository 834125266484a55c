import climate from './vocab/climate.json' with { type: 'json' };
import common from './vocab/common.json' with { type: 'json' };
import conditions from './vocab/conditions.json' with { type: 'json' };
import covers from './vocab/covers.json' with { type: 'json' };
import intents from './vocab/intents.json' with { type: 'json' };
import lights from './vocab/lights.json' with { type: 'json' };
import locks from './vocab/locks.json' with { type: 'json' };
import media from './vocab/media.json' with { type: 'json' };
import naming from './vocab/naming.json' with { type: 'json' };
import numbers from './vocab/numbers.json' with { type: 'json' };
import questions from './vocab/questions.json' with { type: 'json' };
import settings from './vocab/settings.json' with { type: 'json' };
import time from './vocab/time.json' with { type: 'json' };
import vacuum from './vocab/vacuum.json' with { type: 'json' };
import { loadGrammarFiles } from './vocab';

/**
 * The grammar's words, per domain (vocab/<domain>.json), checked when this module loads (vocab.ts
 * loadGrammarFiles). The matcher modules (parser, grammar, values, timing, conditions …) read them
 * from here; docs/devices-vocabulary.md says how to add a word.
 */
const files = loadGrammarFiles({
  'common.json': common,
  'questions.json': questions,
  'intents.json': intents,
  'time.json': time,
  'numbers.json': numbers,
  'settings.json': settings,
  'conditions.json': conditions,
  'naming.json': naming,
  'lights.json': lights,
  'climate.json': climate,
  'covers.json': covers,
  'media.json': media,
  'locks.json': locks,
  'vacuum.json': vacuum,
});

export const COMMON = files['common.json'];
export const QUESTIONS = files['questions.json'];
export const INTENTS = files['intents.json'];
export const TIME = files['time.json'];
export const NUMBERS = files['numbers.json'];
export const SETTINGS = files['settings.json'];
export const CONDITIONS = files['conditions.json'];
export const NAMING = files['naming.json'];
export const LIGHTS = files['lights.json'];
export const CLIMATE = files['climate.json'];
export const COVERS = files['covers.json'];
export const MEDIA = files['media.json'];
export const LOCKS = files['locks.json'];
export const VACUUM = files['vacuum.json'];

/** The raw files, for the check that every pattern the code names exists (tests). */
export const GRAMMAR_FILES = files;
