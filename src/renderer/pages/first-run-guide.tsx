import { useApp } from '../app-context';
import { PagePanels } from '../components/page-panels';
import { Button } from '../components/ui';
import { AddEndpointForm } from './endpoints-page';

/** No endpoint yet: where to find the URL, paste it, then add or import servers. */
export function FirstRunGuide(props: { go: (page: string) => void }) {
  const { t } = useApp();
  return (
    <div className="page guide">
      <h1>{t('guide.title')}</h1>
      <PagePanels />
      <p>{t('guide.intro')}</p>
      <ol className="guide-steps">
        <li>
          <strong>{t('guide.step1.title')}</strong>
          <p className="muted">{t('guide.step1.body')}</p>
        </li>
        <li>
          <strong>{t('guide.step2.title')}</strong>
          <AddEndpointForm />
        </li>
        <li>
          <strong>{t('guide.step3.title')}</strong>
          <p className="muted">{t('guide.step3.body')}</p>
          <Button onClick={() => props.go('servers')}>{t('guide.step3.action')}</Button>
          {/* Importing another program's config is for those who have one: a quieter line after the plain way (issue 33). */}
          <p className="small muted">{t('names8.guide.import')}</p>
        </li>
      </ol>
    </div>
  );
}
