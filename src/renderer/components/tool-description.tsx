import { RESERVED_SERVER_NAME } from '../../shared/settings';
import type { CatalogTool } from '../../shared/status';
import { useApp } from '../app-context';

/** Han characters: a description without any is not Chinese (most often the server's English). */
const HAN = /\p{Script=Han}/u;

/**
 * The description xiaozhi reads (edited in the description dialog). In the Chinese window, a server's own
 * description that is not Chinese is marked as the server's words, as the logs mark a server's output:
 * xiaozhi still reads it as it is. The user's own description and the app's own tools' are not marked.
 */
export function ToolDescription({ tool }: { tool: CatalogTool }) {
  const { t, language } = useApp();
  if (!tool.description)
    return (
      <div className="small tool-description">
        <span className="muted">{t('tools.noDescription')}</span>
      </div>
    );
  const serverWords =
    language === 'zh-CN' && tool.originalDescription === undefined && tool.server !== RESERVED_SERVER_NAME && !HAN.test(tool.description);
  return (
    <div className="small tool-description">
      {serverWords ? (
        <span className="own-words-tag" title={t('tools.serverWordsTitle')}>
          {t('tools.serverWords')}
        </span>
      ) : null}
      <span>{tool.description}</span>
    </div>
  );
}
