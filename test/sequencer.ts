import { readFileSync } from 'node:fs';

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** How vitest itself reads a file's environment (detectCodeBlock in vitest's pool): anywhere in the file. */
const ENVIRONMENT = /@(?:vitest|jest)-environment\s+([\w-]+)\b/;

/** The environment vitest runs `file` in: its `@vitest-environment` comment, else the project's. */
export function environmentOf(file: string, projectEnvironment: string): string {
  let code = '';
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    // Unreadable here: vitest reads it as empty too.
  }
  return ENVIRONMENT.exec(code)?.[1] ?? projectEnvironment;
}

/**
 * Vitest's order (longest first, by the last run's durations), with each project's files of one
 * environment together. A worker that shares its files (isolate: false) is kept for the next file
 * only when that file is of the same project and environment; else it is stopped and a new one
 * imports the app's modules again (~1.3 s of CPU). With the window's jsdom files spread among the
 * node ones, `npm test` started 93 workers (the unit project 11, now 4: 39 s of CPU, now 30 s).
 */
export default class EnvironmentSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const environments = new Map<TestSpecification, string>(
      sorted.map((spec) => [spec, environmentOf(spec.moduleId, spec.project.config.environment)]),
    );
    // The same project's files stay where vitest put them (projects run one after the other);
    // within a project, node's files first (the slow process ones lead), then each other environment.
    const rank = (spec: TestSpecification) => (environments.get(spec) === 'node' ? 0 : 1);
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    const firstOfProject = new Map<string, number>();
    for (const [spec, index] of position) if (!firstOfProject.has(spec.project.name)) firstOfProject.set(spec.project.name, index);
    return [...sorted].sort(
      (a, b) =>
        firstOfProject.get(a.project.name)! - firstOfProject.get(b.project.name)! ||
        rank(a) - rank(b) ||
        (environments.get(a)! < environments.get(b)! ? -1 : environments.get(a)! > environments.get(b)! ? 1 : 0) ||
        position.get(a)! - position.get(b)!,
    );
  }
}
