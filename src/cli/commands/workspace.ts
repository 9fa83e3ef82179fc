import { createWorkspace, listWorkspaces, toWorkspaceView } from '../../services/workspace/workspaces'
import { defineCommand } from '../command'

export const workspaceCreate = defineCommand({
  summary: 'Create a workspace; prints it',
  options: {
    name: { type: 'string', required: true, value: '<name>', description: "the workspace's name" },
    plan: { type: 'string', value: '<plan>', description: 'free, pro or agency (default: pro)' },
    timezone: {
      type: 'string',
      value: '<zone>',
      description: 'IANA time zone of queue slots and reports (default: UTC)',
    },
  },
  examples: ['workspace create --name "Acme" --plan free --timezone Europe/Berlin'],
  run: async ({ deps }, o) =>
    toWorkspaceView(await createWorkspace(deps.db, { name: o.name, planId: o.plan, timezone: o.timezone })),
})

export const workspaceList = defineCommand({
  summary: 'List every workspace, oldest first',
  options: {},
  examples: ['workspace list'],
  run: async ({ deps }) => listWorkspaces(deps.db),
})
