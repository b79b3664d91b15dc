import type { StatusSummary } from '../../shared/status-summary';
import { useApp } from '../app-context';

/** The status summary as text: its worst news first, then the rest (sidebar and overview say the same). */
export function SummaryLines({ summary, className }: { summary: StatusSummary; className?: string }) {
  const { t } = useApp();
  const lines = [summary.headline, ...summary.lines.filter((l) => l !== summary.headline)];
  return (
    <div className={className} role="status">
      {lines.map((line, index) => (
        <div key={line.key} className={index === 0 ? `summary-headline tone-text-${line.tone}` : 'muted'}>
          {t(line.key, line.params)}
        </div>
      ))}
    </div>
  );
}
