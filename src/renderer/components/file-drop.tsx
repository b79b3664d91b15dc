import { useEffect, useState } from 'react';

import type { ImportPreview } from '../../shared/import';
import { type Reading, useImportReader } from './import-reading';

/** Drop a config file anywhere on the window: it is read here and previewed by the bridge (`reading` meanwhile). */
export function useFileDrop(onPreview: (preview: ImportPreview) => void): { dragging: boolean; reading: Reading | undefined } {
  const { reading, readFile } = useImportReader(onPreview);
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const read = async (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      for (const file of Array.from(e.dataTransfer?.files ?? [])) await readFile(file);
    };
    // Each file's failure is its own toast: the listener has nothing left to wait for.
    const drop = (e: DragEvent) => void read(e);
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [readFile]);
  return { dragging, reading };
}
