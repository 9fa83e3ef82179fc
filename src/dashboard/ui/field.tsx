/**
 * A form field: label, the control, inline help and the errors that concern it, all linked by id so a
 * screen reader reads the help and the errors with the control. Markup: `.field`, `.field-help`,
 * `.field-errors` (with `.warning` items for advice that does not block).
 */
import type { Child } from 'hono/jsx'

/** The ids a control points `aria-describedby` at, for a field whose control has `id`. */
export function fieldIds(id: string) {
  return { help: `${id}-help`, errors: `${id}-errors` }
}

/** The `aria-describedby` value for a control with this help and these errors (undefined when neither). */
export function describedBy(id: string, parts: { help?: unknown; errors?: readonly unknown[] }): string | undefined {
  const ids = fieldIds(id)
  const list = [parts.help ? ids.help : '', parts.errors?.length ? ids.errors : ''].filter(Boolean)
  return list.length ? list.join(' ') : undefined
}

export interface FieldProps {
  /** The control's id: the label points at it; help and errors take `${id}-help` and `${id}-errors`. */
  id: string
  label: Child
  help?: Child
  errors?: readonly string[]
  warnings?: readonly string[]
  /** The control itself; give it `aria-describedby={describedBy(id, …)}` and `aria-invalid` when errors. */
  children?: Child
}

/** A field around one control. */
export function Field(props: FieldProps) {
  const ids = fieldIds(props.id)
  const errors = props.errors ?? []
  const warnings = props.warnings ?? []
  return (
    <div class={errors.length ? 'field has-error' : 'field'}>
      <label for={props.id}>{props.label}</label>
      {props.help ? (
        <p class="field-help" id={ids.help}>
          {props.help}
        </p>
      ) : null}
      {props.children}
      {errors.length || warnings.length ? (
        <ul class="field-errors" id={ids.errors}>
          {errors.map((e) => (
            <li>{e}</li>
          ))}
          {warnings.map((w) => (
            <li class="warning">{w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

export interface TextInputProps {
  id: string
  name: string
  label: Child
  type?: 'text' | 'email' | 'password' | 'url' | 'search' | 'number' | 'datetime-local' | 'date' | 'time'
  value?: string
  help?: Child
  errors?: readonly string[]
  required?: boolean
  autocomplete?: string
  placeholder?: string
}

/** A one-line input in a field, wired to its help and errors. */
export function TextField(props: TextInputProps) {
  const { id, name, label, help, errors, type = 'text', ...input } = props
  return (
    <Field id={id} label={label} help={help} errors={errors}>
      <input
        {...input}
        id={id}
        name={name}
        type={type}
        aria-describedby={describedBy(id, { help, errors })}
        aria-invalid={errors?.length ? 'true' : undefined}
      />
    </Field>
  )
}
