import { type Problem, problem } from '../../../shared/problem';
import { failureCause } from '../problems/failure-cause';
import { RegistryAnswerError } from './registry-catalogue';

/**
 * Why the online catalogue (the MCP registry) could not be read, as the window says it: no network
 * (or the name not found), refused, no answer in time, an HTTP error, an answer it cannot read. The
 * raw cause ("getaddrinfo ENOTFOUND …", "fetch failed") stays in the log's English line only.
 */
export function registryProblem(error: unknown): Problem {
  if (error instanceof RegistryAnswerError) return error.problem;
  // AbortSignal.timeout aborts with a DOMException named TimeoutError ("The operation was aborted due to timeout").
  if (error instanceof Error && error.name === 'TimeoutError') return problem('catalogue.timedOut');
  const cause = failureCause(error);
  switch (cause.code) {
    case 'net.dns':
    case 'net.unreachable':
      return problem('catalogue.offline');
    case 'net.refused':
      return problem('catalogue.refused');
    case 'net.timeout':
      return problem('catalogue.timedOut');
    default:
      return problem('catalogue.unreadable');
  }
}
