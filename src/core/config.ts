import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { LOCK_MODEL } from './collections/lock-model';

/**
 * Tunable numbers live here, not as literals in engines. Users override any subset in
 * <data-dir>/config.json; the UI's settings screen writes the same file.
 */
export const configSchema = z.object({
  import: z
    .object({
      /** Files above this size are rejected before parsing (bytes). */
      maxFileBytes: z.number().int().positive().default(200 * 1024 * 1024),
      /** Target characters per virtual page for Markdown/TXT/DOCX (articles are never split). */
      virtualPageChars: z.number().int().positive().default(1800),
      /**
       * Hard ceiling of a Markdown/TXT/DOCX page: an article longer than this (4 pages; the longest
       * statute articles in the shared laws are about 2,500) runs on over several pages, and lines longer
       * than a page are wrapped at sentence ends, so a 50 MB one-line file does not become one page.
       */
      maxPageChars: z.number().int().positive().default(7200),
      /**
       * Zip-based input (DOCX) is checked before it is inflated (common/zip-guard.ts): entries, inflated
       * bytes in all, inflated XML (mammoth holds it as a tree: about 45 bytes of memory per XML byte,
       * so 32 MB is about 1.5 GB and 40 s), and the compression ratio of any entry above 1 MB (generated
       * Word text, the most repetitive, reaches 31:1; the bomb of issue 28 was 1000:1).
       */
      maxArchiveEntries: z.number().int().positive().default(5000),
      maxInflatedBytes: z.number().int().positive().default(256 * 1024 * 1024),
      maxXmlBytes: z.number().int().positive().default(32 * 1024 * 1024),
      maxCompressionRatio: z.number().positive().default(100),
      /** One Word paragraph's XML (characters): the longest statute article is about 2,500 characters of text. */
      maxParagraphChars: z.number().int().positive().default(1024 * 1024),
      /**
       * PDF streams are decoded with hard limits before pdf.js parses the file (common/pdf-guard.ts): one
       * stream that is not an image (a page's content, a font, an object stream) at most this many bytes
       * (a dense vector drawing page is a few MB), all of them together at most `maxInflatedBytes`; an
       * image at most the size it declares. The bomb of issue 28 (2 MB) inflated one page to 2 GB.
       */
      maxPdfStreamBytes: z.number().int().positive().default(64 * 1024 * 1024),
    })
    .prefault({}),
  ocr: z
    .object({
      /** scanned pages are rendered at this resolution for OCR (PP-OCR reads 12-point print well from 150 dpi up) */
      dpi: z.number().int().min(72).max(600).default(200),
      /** a rendered page never exceeds this many pixels (an A3 page at 200 dpi is 7.7 M) */
      maxPagePixels: z.number().int().positive().default(12_000_000),
      /**
       * embedded images larger than this are not decoded (memory stays bounded: 40 M grey pixels decode to
       * 160 MB of RGBA); such a page is skipped with a note. A4 at 600 dpi is 35 M.
       */
      maxImagePixels: z.number().int().positive().default(40_000_000),
      /**
       * a page whose text layer has fewer readable characters than this, and paints an image, is read by
       * OCR (a scan with only a stamped page number, or an empty text layer)
       */
      minTextChars: z.number().int().min(0).default(20),
      /** a text layer where fewer than this share of characters are readable (CJK, Latin, digits, punctuation) is garbage: OCR it */
      minReadableShare: z.number().min(0).max(1).default(0.6),
      /**
       * a line whose least sure character's probability is below this is marked in the reader as possibly
       * misread. Calibrated by `npm run eval -- ocr` (line correct = its text stands exactly in the printed
       * source): 0.49 is the best F1 for "this line is wrong" on the tuning scans (82 % of marked lines wrong,
       * 41 % of wrong lines marked; held-out 60 % / 50 %). The mean character probability separates worse.
       */
      lowConfidence: z.number().min(0).max(1).default(0.49),
    })
    .prefault({}),
  reader: z
    .object({
      /** read_page_range returns at most this many pages per call (agents page through longer spans). */
      maxPages: z.number().int().positive().default(20),
      /**
       * One read returns at most this many characters of page text (about 300 KB of JSON); the rest is
       * a continuation (`truncated`, `next`). 20 full 1,800-character pages (36,000) fit with room for
       * dense PDF pages.
       */
      maxResponseChars: z.number().int().min(1000).default(100_000),
    })
    .prefault({}),
  search: z
    .object({
      rrfK: z.number().positive().default(60),
      coverageThreshold: z.number().min(0).max(1).default(0.5),
      tMin: z.number().min(0).max(1).default(0.4),
      ambiguityRatio: z.number().min(0).max(1).default(0.92),
      /**
       * regulation search: the best hit of another regulation within this share of the top hit makes the
       * result "ambiguous" (choose a regulation), only when the scope was chosen automatically. Calibrated
       * on eval/power (dev questions): 0.97 flags 4 % of right top hits and 22 % of wrong ones.
       */
      crossRegAmbiguity: z.number().min(0).max(1).default(0.97),
      rrfWeight: z.number().min(0).max(1).default(0.7),
      topK: z.number().int().positive().default(10),
      /** chunks of one parent that count for coverage (see search/fusion.ts) */
      coverageCap: z.number().int().positive().default(2),
      /** best chunk evidence (0..1) below this = low evidence */
      minEvidence: z.number().min(0).max(1).default(0.3),
      /** units longer than this are split into overlapping chunks for indexing (characters) */
      chunkChars: z.number().int().positive().default(1000),
      /** score factor of table / ledger rows when the query does not target them, of provisions when it does (regulations/rank.ts) */
      rowFactor: z.number().min(0).max(1).default(0.8),
      /** query tokens found in more than this share of items are dropped (no signal, slow) */
      maxDfRatio: z.number().min(0).max(1).default(0.05),
      /**
       * RRF weight per ranked list (lexical, expansion, vector, known); absent = 1. The known-questions
       * list (articles of similar lay questions, only on libraries holding those articles) counts 1.5:
       * chosen on the tuning half of STARD's held-out fifth (R@100 0.827 -> 0.837, R@10 0.554 -> 0.565),
       * and the never-tuned half moved with it (0.840 -> 0.847, 0.592 -> 0.606; `npm run eval -- stard`).
       */
      listWeights: z.record(z.string(), z.number().min(0)).default({ known: 1.5 }),
      /** chunk candidates per ranked list before fusion */
      candidates: z.number().int().positive().default(100),
      /** auto selection: first-pass hits looked at */
      autoFirstPass: z.number().int().positive().default(100),
      /** auto selection: regulations scoring below this share of the best never join the selection */
      autoKeepRatio: z.number().min(0).max(1).default(0.02),
      /** auto selection: the selected regulations must hold this share of the evidence, else all are searched */
      autoMass: z.number().min(0).max(1).default(0.7),
      /** auto selection: selecting more than this share of all regulations = unsure, search all */
      autoMaxShare: z.number().min(0).max(1).default(0.5),
      /** auto selection: a query word that is the topic (profile word) of at most this many regulations brings them in */
      autoFacetMaxRegs: z.number().int().min(0).default(3),
      /** a facet-owning regulation's best hit joins the first page when it scores at least this share of the top hit */
      facetMinScore: z.number().min(0).max(1).default(0.5),
      /**
       * statute consensus (regulations/search.ts boostByStatuteConsensus): weight, and the top hits it is
       * measured on; 0 = off. Grid 0.1–2 × top 5–30 on the tuning half of STARD's held-out fifth: every
       * setting helped (R@10 0.565 -> 0.57–0.586); 0.2/15 is inside the plateau and the only one that kept
       * eval/power whole (auto top1 83.8 %, MRR 0.892; heavier weights cost power 2–4 top1 points).
       * Held-out 248: R@10 0.585 -> 0.600, never-tuned half 0.606 -> 0.618 (`npm run eval -- stard`).
       */
      consensusWeight: z.number().min(0).default(0.2),
      consensusTop: z.number().int().positive().default(15),
      /**
       * a local regulation's hits (广东省…条例) are scaled by this unless the query names its place
       * (regulations/search.ts yieldLocalToNational); 1 = off. Tuning half of STARD's held-out fifth:
       * 0.4–0.8 alike (R@10 0.583 -> 0.589); held-out 248: R@10 0.600 -> 0.606, never-tuned half
       * 0.618 -> 0.624; eval/power unchanged (no local titles there).
       */
      localRegFactor: z.number().min(0).max(1).default(0.5),
      /**
       * the learned reranker (models/gridcode-rerank-v1, regulations/rerank.ts) re-orders hybrid results
       * when the active embedding model is the one it was trained with; false = the fused order.
       * STARD held-out (cross-fitted, `npm run eval -- stard`): see models/README.md.
       */
      rerank: z.boolean().default(true),
      /** shipped expansion table is used when the library contains this share of its statute words */
      expansionCoverage: z.number().min(0).max(1).default(0.5),
    })
    .prefault({}),
  devices: z
    .object({
      /** top1 - top2 below this asks for clarification instead of guessing. */
      epsilon: z.number().min(0).default(0.08),
      maxNameLength: z.number().int().positive().default(40),
      /** Scoring weights (seed 004): name, type, room, vector similarity, capability match. */
      weights: z
        .object({
          name: z.number().min(0).default(0.5),
          type: z.number().min(0).default(0.2),
          room: z.number().min(0).default(0.15),
          vector: z.number().min(0).default(0.2),
          capability: z.number().min(0).default(0.15),
        })
        .prefault({}),
      /** Action-vs-command similarity below this filters a device when the intent is confident. */
      capabilityMin: z.number().min(0).max(1).default(0.5),
      /** Cosine above which an embedding match counts as vector_hit. */
      vectorMin: z.number().min(0).max(1).default(0.6),
      maxOptions: z.number().int().positive().default(6),
      maxCandidates: z.number().int().positive().default(10),
      maxDescriptionLength: z.number().int().positive().default(80),
      /** Lint: names longer than this are hard to say (characters). */
      lintMaxNameChars: z.number().int().positive().default(12),
      lintNearDuplicateCosine: z.number().min(0).max(1).default(0.95),
    })
    .prefault({}),
  sessions: z
    .object({
      idleMinutes: z.number().positive().default(30),
    })
    .prefault({}),
  collections: z
    .object({
      /** Characters per chunk (a section piece); short sections stay one chunk. */
      maxChunkChars: z.number().int().positive().default(320),
      /** Chunk hits taken from each ranked list (lexical, title, vectors) before aggregation. */
      topChunks: z.number().int().positive().default(25),
      /** Candidates shown when a question is ambiguous. */
      topParents: z.number().int().positive().default(5),
      /** Hit chunks of one document that count for coverage (a long document gains nothing beyond). */
      coverageCap: z.number().int().positive().default(2),
      /** Evidence rules (collections/retrieve.ts): best chunk evidence (term share / title / cosine) needed to lock without coverage, and below which a lock is weak. */
      minEvidence: z.number().min(0).max(1).default(0.4),
      /** Focus rule: documents with at least this many chunks may lock on their best chunk (a precise question cannot cover half of them). */
      focusMinChunks: z.number().int().positive().default(12),
      /** Focus rule in shorter documents: best-chunk evidence needed (they could have reached coverage). */
      focusEvidence: z.number().min(0).max(1).default(0.65),
      /**
       * Focus rule in long documents (focusMinChunks+ chunks, statutes): best-article evidence needed
       * to lock or ask back; below it the answer is low evidence. Calibrated on tuning parts only
       * (highest value that keeps every in-collection right answer): power / labour / -2 sets 129 of
       * 176 right at 0.2 … 0.475 (0.55: 123), STARD tuning right statute 76.7 % up to 0.475 (0.49:
       * 76.0 %); out-of-collection questions (eval/collections-absent.eval.ts tuning) lock less the
       * higher it is: STARD cross-domain wrong lock 0.2 → 22.0 %, 0.3 → 19.5, 0.4 → 17.1, 0.475 → 14.6,
       * round-3 statutes 9.4 → 6.3 % from 0.475. A lower value never added a right answer on the
       * tuning parts (low evidence became an ask-back, and a wrong lock out of the collection).
       */
      focusLongEvidence: z.number().min(0).max(1).default(0.475),
      /** Section choice inside a locked document (collections/sections.ts rankSections): weight of term evidence vs the BM25+vector RRF. */
      sectionEvidenceWeight: z.number().min(0).max(1).default(0.6),
      /** Section choice: bonus for an article that states a quantity when the question asks 多少/几天, or enumerates when it asks 哪些. */
      sectionFormBonus: z.number().min(0).max(1).default(0.1),
      /**
       * Section choice: weight of question words only the title field holds (document title, chapter
       * path) in an article's evidence; the rest is the article text's own share. Inside one document
       * the chapter path is what its articles share (`女职工和未成年工特殊保护`), the text tells them apart.
       */
      sectionTitleWeight: z.number().min(0).max(1).default(0.5),
      /**
       * Section choice: an article writing a stretch of the question verbatim (at least 4 characters in
       * order: `上网电价实行`, `电力安全事故`) gets up to this much (full at 8 characters), a tie-breaker
       * between articles the ranker scores about alike, not a signal of its own. Tuning parts only
       * (article first, given the right statute, power | labour | power-2 | labour-2): 0 → 73/82 |
       * 38/53 | 16/24 | 13/28; 0.015 – 0.02 → 74/82, the rest equal, STARD tuning article@1 39.5 →
       * 40.3 %; 0.025 – 0.04 lose a labour article; round 6's flat +0.1 for such a stretch lost one.
       * End to end at 0.0175: power tuning 71 → 72/78, STARD article@1 tuning 39.5 → 40.3 %, held-out
       * 36.6 → 38.2 %; every other collections-laws set, collections-absent and recipes unchanged.
       */
      sectionPhraseBonus: z.number().min(0).max(1).default(0.0175),
      /**
       * Section choice for a question asking an aspect (penalty, scope, definition) about a subject of
       * its own (`能否追究医院的责任`, `什么是保理合同`): bonus for the aspect's sections (penalty
       * chapter, 是指/所称 articles) over the ranking (collections/sections.ts). 0 … 0.2 score alike on
       * the STARD tuning part, on its learn part without learned lists (penalty 7 / 22, definition
       * 8 / 15 right first) and on the power and labour statutes; 0.3 loses a definition, 0.5 three.
       */
      sectionAspectBonus: z.number().min(0).max(1).default(0.1),
      /** Focus rule: another document of the same statute family whose best article scores above best × this makes the question ambiguous (see retrieve.ts). */
      familyAmbiguityRatio: z.number().min(0).max(1.5).default(0.95),
      /** When titles make a question ambiguous, titles scoring >= best × this are listed as candidates. */
      candidateTitleRatio: z.number().min(0).max(1).default(0.85),
      /** Title similarity below this does not enter the title ranking. */
      minTitleScore: z.number().min(0).max(1).default(0.3),
      /** Sessions idle longer than this are deleted (expired ones are kept until then so a returning user is told). */
      sessionRetentionDays: z.number().positive().default(30),
      /** Cosine below this gives a chunk no evidence (vectors still rank): unrelated texts reach 0.5-0.7 with small models. */
      vectorEvidenceFloor: z.number().min(0).max(1).default(0.75),
      /**
       * Known questions (collections/known-answers.ts): a learned question closer than this (idf-weighted
       * cosine) points at its articles. Tuning part of eval/collections-stard.eval.ts (statute locked /
       * wrong lock): 0.2 → 74.4 / 6.2 %, 0.25 → 73.6 / 4.7, 0.3 → 72.1 / 4.7, 0.5 → 69.8 / 8.5,
       * 0.7 → 65.9 / 7.0, none 64.3 / 7.8.
       */
      knownMinSim: z.number().min(0).max(1).default(0.3),
      /**
       * Known questions choosing the article inside the locked statute need to be closer: a loose
       * neighbour names the right statute more often than the right article (tuning part: 0.3 → 38.0 %
       * right article first, 0.5 → 39.5 %, 0.8 → 37.2 %). Refit on all tuning parts (STARD tuning
       * article@1 | labour | power, one stop later): 0.5 → 38.8 % | 32/48 | 70/78; 0.55 and 0.6 → 38.8 % |
       * 33/48 | 70/78 (a neighbour at 0.51 asking what 经济补偿金 is no longer picks the article for
       * `经济补偿金是怎么算的`); 0.7 → 36.4 %; never → 35.7 %. 0.55: the middle of the flat range.
       */
      knownSectionMinSim: z.number().min(0).max(1).default(0.55),
      /**
       * Subject check (collections/subject.ts): a word names dishes when titles hold it for at least this
       * share of the documents mentioning it (排骨, 红烧), not a description word one title happens to hold (家常).
       */
      dishWordTitleShare: z.number().min(0).max(1).default(0.2),
      /**
       * Subject check of recipe collections (collections/subject.ts): a named dish making up at least
       * subjectMinShare of the question core must be held (weighted share of its words in the title) at
       * least subjectMinHeld by the locked recipe, else the answer is not_found. Tuning slices (every 4th
       * item held out) of eval/collections-absent.eval.ts against the howtocook evaluation: held 0.5 / 0.6 /
       * 0.7 at share 0.3 stop 10 / 11 / 11 of 16 wrong locks on absent dishes and cost 1 / 2 / 3 of 48
       * natural locks, no title question and no description; share 0.4 / 0.5 stop fewer (10 / 9).
       */
      subjectMinHeld: z.number().min(0).max(1).default(0.6),
      subjectMinShare: z.number().min(0).max(1).default(0.3),
      /**
       * Recipes (collections/subject.ts): a word the segmenter made up (tag x, of noun pieces) that at most
       * this many recipes write is a modifier of the dish name it precedes (京酱 + 肉丝). 0: tuning absent
       * dishes round 1 wrong locks 3.3 → 0 %; howtocook natural / title questions unchanged (97.7 / 99.5 %).
       */
      modifierMaxDocs: z.number().int().min(0).default(0),
      /**
       * Recipes (collections/subject.ts): a modifier of the name (a word before its head) at least this
       * distinctive (idf over the collection's chunks) that the candidate's title does not hold (nor, for an
       * attached word, its text) makes the candidate another dish. Measured 0 and 99 (off): no tuning or
       * howtocook in-collection question lost at 0 (natural 97.7 %, title 99.5 %, paraphrases 76.2 % both),
       * so the lowest: every modifier counts (round 2, held out: one low_evidence becomes a named not_found).
       */
      subjectModifierMinWeight: z.number().min(0).default(0),
      /**
       * Statute collections (collections/subject.ts): a question whose nearest known questions cite
       * statutes the collection does not hold at least this much closer (cosine) than any citing one it
       * holds is about a matter the collection does not regulate (not_found) — only for collections at
       * least elsewhereMinKnown known questions cite (the power statutes: 1 of 1,235; labour 67, STARD
       * domains 48–108). Tuning parts only: right locks reach 0.19 (STARD domains, own questions) and
       * 0.32 (labour lay questions the known questions do not cover), an ask-back offering the right
       * statute 0.42; STARD questions asked to another domain's collection lock at 0.49 and 0.70 (the
       * other six wrong locks there are below 0.36): 0.45 sits between 0.42 and 0.49.
       */
      elsewhereMargin: z.number().min(0).max(1).default(0.45),
      /**
       * ... or at least this much closer when every noun of the question (one is enough) is one the collection
       * mentions only in passing (elsewhereMentionRatio) while a statute outside it is about one of them, and the
       * statute the nearest outside known question cites is named for such a noun (商标 → 商标法; 公司 → 民法典 is
       * not). Stop 39, tuning parts: any margin from 0 to 0.22 turns the same three STARD cross-domain wrong locks
       * (trademark questions on 刑法 第二百一十三条: margins 0.22, 0.30, 0.33) into not_found and changes no
       * in-collection answer of collections-stard, collections-laws or collections-absent; 0 (the known questions
       * merely lean outside) — the title and passing conditions carry the decision.
       */
      elsewherePassingMargin: z.number().min(0).max(1).default(0),
      elsewhereMinKnown: z.number().int().min(0).default(10),
      /**
       * Statute collections (collections/subject.ts): a noun is a statute word when at least this many
       * statutes of the whole corpus use it (resources/collections/statute-words.tsv, learned by
       * scripts/learn-statute-words.ts). A noun no statute uses (电饭锅, 老板, 肚子) names a thing whose
       * kind the statutes name (商品, 用人单位, 人身损害): the collection not mentioning it is no sign that
       * the matter is absent, so it alone turns no ask-back or low-evidence answer into not_found.
       * 2 (every word the list holds) is the only value losing no not_found on the tuning parts of
       * eval/collections-absent.eval.ts: 3 loses 抚养权 (3 statutes), 起征点 has 2.
       */
      statuteWordMinFiles: z.number().int().min(1).default(2),
      /**
       * Statute collections (collections/subject.ts): a noun the candidate statutes never mention turns an
       * ask-back or low-evidence answer into not_found only when a statute of the corpus is at least this
       * much about it or about a word of its phrase (statute-topics.tsv; 50 is the list's floor). Tuning
       * parts: no right answer on an absent matter lost (抚养权, 共享单车 go from not_found to low_evidence,
       * both right; 个人所得税起征点 stays not_found by 所得税), the one tuning false refusal (衣服, 20) gone;
       * collections-laws and STARD unchanged.
       */
      statuteMatterMinRate: z.number().min(0).default(50),
      /**
       * Statute collections (collections/subject.ts matterElsewhere): a noun of the question the collection
       * never mentions (its lay statute words neither) names a matter governed elsewhere when a statute of
       * the whole corpus is about it — at least elsewhereTopicRate occurrences per 10,000 tokens
       * (resources/collections/statute-topics.tsv: 公务员法 411 for 公务员, 石油 534, 交通事故 248; everyday words
       * scatter thinly: 电线杆 7, 员工 68, 家属 140 in an unrelated regulation) — and such nouns are at least
       * elsewhereNounShare of the question's nouns, and no noun is one the collection is much about (a
       * document of it at least elsewhereInsideVeto per 10,000 tokens). A lock the known questions support
       * stands. Tuning parts only (collections-absent tuning items and STARD cross-domain tuning questions vs
       * every in-collection tuning question of collections-laws / -labour / -2 sets, the stop-37 inside
       * questions and STARD's own-domain tuning questions): at rate 120, share 1/3, veto 65 the rule turns
       * 45 of 108 absent questions into not_found (12 of 39 wrong locks) and no in-collection question; rate
       * 100 also refuses a STARD question about 社保 (106), 130 loses 石油 / 出租车-class fixes; the veto
       * between 56 (责任 in a wrong lock on 交通事故) and 77 (委托 in a STARD civil lock about 港口).
       */
      elsewhereTopicRate: z.number().min(0).default(120),
      elsewhereNounShare: z.number().min(0).max(1).default(1 / 3),
      /**
       * ... or when every noun of the question (two or more) is one the collection mentions at most this share
       * as much as a statute outside it is about it, one of them at least elsewhereTopicRate. Tuning parts: the
       * absent questions it adds reach 0.0099 (标志 7.7 against 780: trademark questions asked to the criminal
       * code, 户口, 作品), the nearest in-collection question 0.0173 (a STARD civil lock on 种类物 / 消费); 0.0125
       * sits between. One noun alone says too little (公司不让我休年假: 公司 790 outside, 2 in the labour statutes).
       */
      elsewhereMentionRatio: z.number().min(0).max(1).default(0.0125),
      elsewhereInsideVeto: z.number().min(0).default(65),
      /**
       * A noun at least this share of all the statutes of the corpus use (resources/collections/statute-words.tsv:
       * 标准 2,310 of 3,445, 登记, 规定…) says nothing about what the collection is about, so it does not veto
       * matterElsewhere however often the collection writes it. Stop-38 tuning: 0.5 turns one ask-back on an
       * absent matter (社会团体登记需要多少会员) into not_found and changes no other tuning answer and no
       * in-collection answer (collections-absent, collections-laws, collections-stard); 0.25 also loses a STARD
       * tuning right lock. 1: every noun vetoes.
       */
      elsewhereVetoMaxStatuteShare: z.number().min(0).max(1).default(0.5),
      /**
       * A statute lock is overruled (not_found) when at least this many of the question's nouns are ones the
       * collection never writes (not even a two-character piece or a lay statute word of them) and none is a
       * noun the collection is much about (subject.ts unwrittenMatter). Stop-40 tuning: 1 also refuses
       * in-collection questions naming one everyday noun (因工死亡家属…, 合同工辞职…: the statute answers them
       * by its verbs); 2 refuses none. 0: off.
       */
      unwrittenMinNouns: z.number().int().min(0).default(2),
      /**
       * The calibrated lock decision of statute collections (collections/lock-model.ts): the best
       * article's statute is locked when p(right) reaches the threshold that applies, else asked back
       * with the runner-up. Weights, temperature and the thresholds are fitted data
       * (collections/data/lock-model.json, `npm run models:fit-lock`, tuning rows only: how, and the
       * numbers, in that script's header and docs/architecture.md); the thresholds here override the
       * fitted ones, `enabled: false` leaves the focus rule's ratio decisions alone.
       */
      lockModel: z
        .object({
          enabled: z.boolean().default(true),
          /** p needed to lock with no tie / a tie with another part of the same code / a tie with another statute (lock-model.ts Thresholds; a law and its own rules are one statute) */
          threshold: z.number().min(0).max(1).default(LOCK_MODEL.thresholds.lock),
          familyThreshold: z.number().min(0).max(1).default(LOCK_MODEL.thresholds.family),
          rivalThreshold: z.number().min(0).max(1).default(LOCK_MODEL.thresholds.rival),
          /** p needed at least when the known questions' word model prefers another statute (lock-model.ts knownDisagrees; 0: off) */
          disagreeThreshold: z.number().min(0).max(1).default(LOCK_MODEL.thresholds.disagree ?? 0),
          /** p needed at least to lock a judicial interpretation (lock-model.ts isJudicialInterpretation, Thresholds interpretation; 0: off) */
          interpretationThreshold: z.number().min(0).max(1).default(LOCK_MODEL.thresholds.interpretation ?? 0),
        })
        .prefault({}),
      /** not_found: near documents offered as alternatives (labelled as not what was asked). */
      nearAlternatives: z.number().int().min(0).max(10).default(3),
      /** Longer answers (a huge document's sections) are cut here, pointing to the source file. */
      maxAnswerChars: z.number().int().positive().default(8000),
      /** Files above this size are skipped with a reason (bytes). */
      maxFileBytes: z.number().int().positive().default(32 * 1024 * 1024),
      /** JSONL logs (retrieval / lock / evidence / generation); null = off. Relative paths are under the data dir. */
      logs: z
        .object({
          retrieval: z.string().nullable().default('logs/retrieval.jsonl'),
          lock: z.string().nullable().default('logs/lock.jsonl'),
          evidence: z.string().nullable().default('logs/evidence.jsonl'),
          generation: z.string().nullable().default('logs/generation.jsonl'),
          /** A log above this size is rotated to <file>.1 (older rotations shift up to `keep`). */
          maxBytes: z.number().int().positive().default(5 * 1024 * 1024),
          keep: z.number().int().min(1).default(3),
        })
        .prefault({}),
    })
    .prefault({}),
  embed: z
    .object({
      batchSize: z.number().int().positive().default(32),
    })
    .prefault({}),
  llm: z
    .object({
      enabled: z.boolean().default(false),
      parseModel: z.string().default('qwen-flash'),
      chatModel: z.string().default('qwen-plus'),
      timeoutMs: z.number().int().positive().default(20000),
      /** OpenAI-compatible endpoint; env DASHSCOPE_BASE_URL wins over this. */
      baseUrl: z.string().default('https://dashscope.aliyuncs.com/compatible-mode/v1'),
      /** Command parsing must feel instant; a slower reply falls back to the rule parser. */
      parseTimeoutMs: z.number().int().positive().default(8000),
      /** Retries (by the openai SDK) on 429/408/409/5xx/connection errors; HTTP retries back off from retryBaseMs, a Retry-After is honoured up to retryMaxMs. */
      maxRetries: z.number().int().min(0).default(2),
      retryBaseMs: z.number().int().min(0).default(500),
      retryMaxMs: z.number().int().min(0).default(8000),
      /** Chat agent: tool-call rounds before it stops, and the size of one tool result sent back. */
      maxToolSteps: z.number().int().positive().default(8),
      toolResultMaxChars: z.number().int().positive().default(6000),
      embedModel: z.string().default('text-embedding-v4'),
      embedDims: z.number().int().positive().default(1024),
      /** Pages read (from page 1) when generating regulation metadata. */
      metadataPages: z.number().int().positive().default(5),
    })
    .prefault({}),
});

export type AppConfig = z.infer<typeof configSchema>;

export const CONFIG_FILE_NAME = 'config.json';

export function defaultConfig(): AppConfig {
  return configSchema.parse({});
}

/** Reads <dataDir>/config.json; a broken file falls back to defaults and reports why instead of crashing. */
export function loadConfig(dataDir: string): { config: AppConfig; warning?: string } {
  const file = path.join(dataDir, CONFIG_FILE_NAME);
  if (!fs.existsSync(file)) return { config: defaultConfig() };
  try {
    return { config: configSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8'))) };
  } catch (e) {
    return { config: defaultConfig(), warning: `配置文件 ${file} 无效，已使用默认值：${(e as Error).message}` };
  }
}

export function saveConfig(dataDir: string, config: AppConfig): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, CONFIG_FILE_NAME), JSON.stringify(config, null, 2));
}
