import { describe, expect, expectTypeOf, it } from 'vitest';

import type * as commands from '../../../src/main/core/bridge/commands';
import type { CommandHandlers } from '../../../src/main/core/bridge/commands';
import {
  type BridgeCommands,
  callCommands,
  catalogueCommands,
  commandNames,
  confirmationCommands,
  elicitationCommands,
  endpointCommands,
  hostCommands,
  importExportCommands,
  preferenceCommands,
  runtimeCommands,
  serverCommands,
  stateCommands,
  taskCommands,
  toolCommands,
} from '../../../src/shared/bridge-api';
import { modelCommands } from '../../../src/shared/model-api';
import { toolSetCommands } from '../../../src/shared/tool-set-api';

/*
 * The handlers are typed from the zod contract. `npm run typecheck` (tsc over test/ too) checks
 * this file: each `@ts-expect-error` below must meet an error, so a handler typed loosely again
 * (`(input: never) => Promise<unknown>`) fails the typecheck here.
 */

type State = ReturnType<typeof commands.stateCommandHandlers>;
type Endpoints = ReturnType<typeof commands.endpointCommandHandlers>;
type Servers = ReturnType<typeof commands.serverCommandHandlers>;
type ToolSets = ReturnType<typeof commands.toolSetCommandHandlers>;
type ImportExport = ReturnType<typeof commands.importExportCommandHandlers>;
type All = CommandHandlers<BridgeCommands>;

// @ts-expect-error getState answers a BridgeState, not a number
const _wrongOutput: State['getState'] = async () => 42;
// @ts-expect-error revealEndpointUrl takes an endpoint id that is a string
const _wrongInput: Endpoints['revealEndpointUrl'] = async (input: { id: number }) => String(input.id);
// @ts-expect-error revealEndpointUrl answers the URL, a string
const _wrongUrl: Endpoints['revealEndpointUrl'] = async () => ({ url: 'wss://example.test' });
// @ts-expect-error startServer takes a server's name
const _wrongName: Servers['startServer'] = async (input: { id: string }) => void input.id;
// @ts-expect-error addToolSet answers the set it made, with its id
const _wrongSet: ToolSets['addToolSet'] = async () => ({ name: 'set' });
// @ts-expect-error exportConfig answers a file name and its text
const _wrongExport: ImportExport['exportConfig'] = async () => 'text';
// @ts-expect-error the whole table is typed too: callTool answers text, isError, durationMs and bytes
const _wrongCall: All['callTool'] = async () => ({ text: 'ok' });

describe('the command handlers are typed from the contract', () => {
  it('gives each group its own slice of the contract, input as validated and output as declared', () => {
    expectTypeOf<State>().toEqualTypeOf<CommandHandlers<typeof stateCommands>>();
    expectTypeOf<Endpoints>().toEqualTypeOf<CommandHandlers<typeof endpointCommands>>();
    expectTypeOf<Servers>().toEqualTypeOf<CommandHandlers<typeof serverCommands>>();
    expectTypeOf<ReturnType<typeof commands.toolCommandHandlers>>().toEqualTypeOf<CommandHandlers<typeof toolCommands>>();
    expectTypeOf<ReturnType<typeof commands.preferenceCommandHandlers>>().toEqualTypeOf<CommandHandlers<typeof preferenceCommands>>();
    expectTypeOf<ReturnType<typeof commands.callCommandHandlers>>().toEqualTypeOf<CommandHandlers<typeof callCommands>>();
    expectTypeOf<ReturnType<typeof commands.taskCommandHandlers>>().toEqualTypeOf<CommandHandlers<typeof taskCommands>>();
    expectTypeOf<ReturnType<typeof commands.confirmationCommandHandlers>>().toEqualTypeOf<CommandHandlers<typeof confirmationCommands>>();
    expectTypeOf<ReturnType<typeof commands.elicitationCommandHandlers>>().toEqualTypeOf<CommandHandlers<typeof elicitationCommands>>();
    expectTypeOf<ReturnType<typeof commands.catalogueCommandHandlers>>().toEqualTypeOf<CommandHandlers<typeof catalogueCommands>>();
    expectTypeOf<ReturnType<typeof commands.hostCommandHandlers>>().toEqualTypeOf<CommandHandlers<typeof hostCommands>>();
    expectTypeOf<ReturnType<typeof commands.runtimeCommandHandlers>>().toEqualTypeOf<CommandHandlers<typeof runtimeCommands>>();
    expectTypeOf<ImportExport>().toEqualTypeOf<CommandHandlers<typeof importExportCommands>>();
    expectTypeOf<ToolSets>().toEqualTypeOf<CommandHandlers<typeof toolSetCommands>>();
    expectTypeOf<ReturnType<typeof commands.modelCommandHandlers>>().toEqualTypeOf<CommandHandlers<typeof modelCommands>>();
    // A handler's input is what the bridge validated: defaults applied (callTool's arguments are always there).
    expectTypeOf<Parameters<All['callTool']>[0]['arguments']>().toEqualTypeOf<Record<string, unknown>>();
  });

  it('holds every command in exactly one group', () => {
    const groups = [
      stateCommands,
      endpointCommands,
      serverCommands,
      toolCommands,
      preferenceCommands,
      callCommands,
      taskCommands,
      confirmationCommands,
      elicitationCommands,
      catalogueCommands,
      hostCommands,
      runtimeCommands,
      importExportCommands,
      toolSetCommands,
      modelCommands,
    ];
    const names = groups.flatMap((group) => Object.keys(group));
    // A name in two groups would be spread over silently: one handler would never run.
    expect(names.length).toBe(new Set(names).size);
    expect([...names].sort()).toEqual([...commandNames].sort());
  });
});
