/** What an event stream sends in its first half second (it stays open for minutes): then it is closed. */
export async function streamOpening(res: Response): Promise<string> {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const stop = Date.now() + 500
  while (Date.now() < stop) {
    const chunk = await Promise.race([
      reader.read(),
      new Promise<null>((r) => setTimeout(() => r(null), stop - Date.now())),
    ])
    if (!chunk || chunk.done) break
    text += decoder.decode(chunk.value, { stream: true })
  }
  await reader.cancel()
  return text
}

/** An answer that is an event stream (`GET /v1/events/stream`), read with `streamOpening`, not to its end. */
export const isEventStream = (res: Response) =>
  res.headers.get('content-type')?.startsWith('text/event-stream') === true
