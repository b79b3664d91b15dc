import { createContext, useContext } from 'react';

import type { Language, Translate } from '../shared/i18n/translate';
import type { ImportPreview } from '../shared/import';
import type { BridgeStore } from './store/bridge-store';

export interface AppContextValue {
  store: BridgeStore;
  t: Translate;
  language: Language;
  /** Shows a short message at the bottom of the window. */
  toast: (message: string, kind?: 'info' | 'error') => void;
  /** Opens the import preview dialog. */
  showImport: (preview: ImportPreview) => void;
}

export const AppContext = createContext<AppContextValue | undefined>(undefined);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside <AppContext>');
  return value;
}
