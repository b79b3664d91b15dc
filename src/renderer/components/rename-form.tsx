import { useState } from 'react';

import { useApp } from '../app-context';
import { Button } from './ui';

/**
 * Renaming in place, the same everywhere: the name in a box, Save, then Cancel (Esc too). An empty
 * name keeps the old one; the form closes once the new name is saved.
 */
export function RenameForm(props: {
  label: string;
  name: string;
  maxLength?: number;
  onSave: (name: string) => Promise<boolean>;
  onDone: () => void;
}) {
  const { t } = useApp();
  const [name, setName] = useState(props.name);
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSave(name.trim() || props.name).then((ok) => ok && props.onDone());
      }}
      onKeyDown={(e) => e.key === 'Escape' && props.onDone()}
    >
      <input aria-label={props.label} value={name} maxLength={props.maxLength} autoFocus onChange={(e) => setName(e.target.value)} />
      <Button small type="submit" kind="primary">
        {t('common.save')}
      </Button>
      <Button small onClick={props.onDone}>
        {t('common.cancel')}
      </Button>
    </form>
  );
}
