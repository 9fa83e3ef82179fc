/**
 * upload.js: a file goes straight to storage through the API's presigned upload (PUT with a
 * progress bar from XMLHttpRequest's upload events), then is registered in the media library.
 * In the composer the new asset is added to the picker, ticked.
 */
import { postJson } from './lib/fetch-json'

/** The presigned upload the API hands out. */
interface UploadTicket {
  uploadUrl: string
  headers: Record<string, string>
  storageKey: string
  url: string
}

/** A media asset as the library registers it. */
export interface MediaAsset {
  id: string
  type: string
  url: string
  altText: string | null
}

/** POSTs JSON and returns the answer's body; a refusal throws with the server's sentence. */
async function post<T>(url: string, json: unknown): Promise<T> {
  const answer = await postJson<T & { error?: string }>(url, { json })
  if (!answer.ok || !answer.body) throw new Error(answer.body?.error || 'Upload refused.')
  return answer.body
}

/** PUTs the file to storage, moving the progress bar as it goes. */
function put(ticket: UploadTicket, file: File, bar: HTMLProgressElement | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', ticket.uploadUrl)
    // The browser sends Content-Length itself (the file's size, the one signed); it refuses to be told.
    for (const [name, value] of Object.entries(ticket.headers)) {
      if (name.toLowerCase() !== 'content-length') xhr.setRequestHeader(name, value)
    }
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable && bar) bar.value = Math.round((e.loaded / e.total) * 100)
    })
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve()
      else reject(new Error('Storage refused the file.'))
    })
    xhr.addEventListener('error', () => reject(new Error('The upload failed.')))
    xhr.send(file)
  })
}

/** Adds the new asset to the composer's picker, ticked; on the media page, reloads the library. */
function addToPicker(asset: MediaAsset): void {
  const picker = document.getElementById('media-picker')
  if (!picker) {
    window.location.reload()
    return
  }
  const item = document.createElement('li')
  const tick = document.createElement('input')
  tick.type = 'checkbox'
  tick.name = 'mediaIds'
  tick.value = asset.id
  tick.id = `media-${asset.id}`
  tick.checked = true
  const label = document.createElement('label')
  label.htmlFor = tick.id
  label.textContent = `${asset.altText || asset.id} ${asset.type}`
  item.append(tick, label)
  picker.appendChild(item)
  // The composer's script turns the item into a tile of its grid (the asset in `detail`).
  tick.form?.dispatchEvent(new CustomEvent<MediaAsset>('media-added', { detail: asset }))
}

function start(box: HTMLElement): void {
  const input = box.querySelector<HTMLInputElement>('input[type="file"]')
  const alt = box.querySelector<HTMLInputElement>('#upload-alt')
  const bar = box.querySelector('progress')
  const status = box.querySelector('[role="status"]')
  const uploadUrl = box.dataset.upload ?? ''
  const registerUrl = box.dataset.register ?? ''
  if (!input) return
  const say = (text: string) => {
    if (status) status.textContent = text
  }
  input.addEventListener('change', async () => {
    const file = input.files?.[0]
    if (!file) return
    if (bar) bar.value = 0
    say(`Uploading ${file.name}...`)
    try {
      const ticket = await post<UploadTicket>(uploadUrl, {
        filename: file.name,
        contentType: file.type,
        sizeBytes: file.size,
      })
      await put(ticket, file, bar)
      const asset = await post<MediaAsset>(registerUrl, {
        type: file.type.startsWith('video/') ? 'VIDEO' : 'IMAGE',
        storageKey: ticket.storageKey,
        url: ticket.url,
        altText: alt?.value ? alt.value : null,
      })
      if (bar) bar.value = 100
      say(`Uploaded ${file.name}.`)
      addToPicker(asset)
      input.value = ''
    } catch (err) {
      say(err instanceof Error ? err.message : 'The upload failed.')
    }
  })
}

const box = document.querySelector<HTMLElement>('[data-upload]')
if (box) start(box)
