/** The dashboard's shared server components: import from here. Styles: src/dashboard/styles/components.ts. */
export { Button, ButtonLink, type ButtonProps, type ButtonVariant } from './button'
export { describedBy, Field, type FieldProps, fieldIds, TextField } from './field'
export { type BadgeStatus, Chip, StatusBadge } from './badge'
export { Card, PageHeader, type TabLink, Tabs } from './card'
export { EmptyState, Skeleton, Toast } from './feedback'
export { NetworkChip, NetworkMark, networkClass, networkName } from './network'
