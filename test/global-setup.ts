/**
 * Runs once before the unit suites. Engines add fixture generation here
 * (e.g. the tiny ONNX test model) so every test sees the same real files.
 */
export default async function setup(): Promise<void> {}
