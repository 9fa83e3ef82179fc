import type { MediaType } from '../../domain/vocabulary'
import { index, integer, pgTable, real, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { ts, workspaces } from './workspaces'

export const folders = pgTable(
  'folders',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('folders_workspace_name_uq').on(t.workspaceId, t.name)],
)

export const mediaAssets = pgTable(
  'media_assets',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    folderId: text('folder_id').references(() => folders.id, { onDelete: 'set null' }),
    type: text('type').$type<MediaType>().notNull(),
    storageKey: text('storage_key').notNull(),
    url: text('url').notNull(),
    mimeType: text('mime_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    durationSec: real('duration_sec'),
    sizeBytes: integer('size_bytes').notNull(),
    altText: text('alt_text'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('media_assets_storage_key_uq').on(t.storageKey),
    index('media_assets_workspace_folder_idx').on(t.workspaceId, t.folderId, t.createdAt.desc()),
    index('media_assets_workspace_created_idx').on(t.workspaceId, t.createdAt.desc()),
  ],
)

/** A variant links a source image to the asset cut from it for one canvas. */
export const mediaVariants = pgTable(
  'media_variants',
  {
    sourceId: text('source_id')
      .notNull()
      .references(() => mediaAssets.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    fit: text('fit').notNull(),
    crop: text('crop').notNull(),
    assetId: text('asset_id')
      .notNull()
      .references(() => mediaAssets.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('media_variants_uq').on(t.sourceId, t.format, t.fit, t.crop),
    index('media_variants_asset_idx').on(t.assetId),
  ],
)
