import { useEffect, useEffectEvent, useState } from 'react';

import type { CatalogueEntry, CatalogueValue } from '../../../shared/catalogue';
import { own } from '../../../shared/own';
import type { PathCheck, PathValueKind } from '../../../shared/path-values';
import { useApp } from '../../app-context';

/** How long typing pauses before the path shown under a field is worked out again. */
const SHOW_AFTER_MS = 250;

/** A value that names a folder or file on the engine's computer. */
export const isPathValue = (value: CatalogueValue): value is CatalogueValue & { kind: PathValueKind } =>
  value.kind === 'folder' || value.kind === 'file' || value.kind === 'path';

const pathKind = (value: CatalogueValue): PathValueKind | undefined => (isPathValue(value) ? value.kind : undefined);

/** The entry's values that name a folder or file, with what each must be. */
export function pathValuesOf(entry: CatalogueEntry): { id: string; kind: PathValueKind }[] {
  return entry.values.flatMap((value) => {
    const kind = pathKind(value);
    return kind ? [{ id: value.id, kind }] : [];
  });
}

/**
 * The folder and file values as the engine's computer sees them: the full path each stands for
 * (shown under its field while typing; a relative name is taken from the home folder), and `check`,
 * which asks once more before saving and answers the values to save (full paths) and the problems.
 */
export function usePathChecks(entry: CatalogueEntry, values: Record<string, string>) {
  const { store } = useApp();
  const paths = pathValuesOf(entry);
  const typed = paths.map((p) => (own(values, p.id) ?? '').trim());
  const key = JSON.stringify(typed);
  const [shown, setShown] = useState<{ key: string; checks: PathCheck[] } | undefined>();

  const ask = async (texts: string[]) => {
    const asked = paths.flatMap((p, i) => (texts[i] ? [{ value: texts[i], kind: p.kind }] : []));
    const answer = asked.length > 0 ? await store.api.checkPathValues({ values: asked }) : { checks: [] };
    let at = 0;
    return texts.map((text) => (text ? answer.checks[at++] : undefined));
  };

  const askLater = useEffectEvent((texts: string[]) => ask(texts));
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      void askLater(JSON.parse(key) as string[]).then(
        (checks) => live && setShown({ key, checks: checks.filter((c) => c !== undefined) }),
        () => undefined,
      );
    }, SHOW_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]);

  /** The full path shown under a field, once known for what it holds now and when it differs from it. */
  const resolvedFor = (id: string): string | undefined => {
    if (shown?.key !== key) return undefined;
    const index = paths.findIndex((p) => p.id === id);
    const text = typed[index];
    if (!text) return undefined;
    const before = typed.slice(0, index).filter(Boolean).length;
    const path = shown.checks[before]?.path;
    return path && path !== text ? path : undefined;
  };

  /** Checks every path value now: the values with full paths in, and each value's problem by its id. */
  const check = async (): Promise<{ values: Record<string, string>; problems: Map<string, PathCheck> }> => {
    const checks = await ask(typed);
    const problems = new Map<string, PathCheck>();
    const full = new Map(paths.flatMap((p, i) => (checks[i] ? [[p.id, checks[i]] as const] : [])));
    for (const [id, c] of full) if (c.problem) problems.set(id, c);
    const resolved = Object.fromEntries(Object.entries(values).map(([id, text]) => [id, full.get(id)?.path ?? text]));
    return { values: resolved, problems };
  };
  return { resolvedFor, check };
}
