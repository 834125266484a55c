import { ensureTestModel } from '../scripts/make-test-model';

/**
 * Runs once before the unit suites. Engines add fixture generation here
 * (e.g. the tiny ONNX test model) so every test sees the same real files.
 */
export default async function setup(): Promise<void> {
  // generated once into test/fixtures/generated (git-ignored); regenerated when missing or outdated
  ensureTestModel();
}
