/**
 * The WebAssembly modules of the image pipeline, as a port: Node compiles them from node_modules,
 * the Worker gets them as module imports (wrangler's CompiledWasm rule). A compiled
 * `WebAssembly.Module` is immutable code, so a runtime may compile it once per process; every
 * decode instantiates it afresh, so no image memory outlives its job.
 */
export interface CodecModules {
  /** libjpeg-turbo's TurboJPEG API (@cwasm/jpeg-turbo): decodes with DCT-domain downscaling. */
  jpegTurbo: WebAssembly.Module
  /** MozJPEG encoder (@jsquash/jpeg). */
  mozjpegEncoder: WebAssembly.Module
  /** PNG decoder (@jsquash/png). */
  pngDecoder: WebAssembly.Module
  /**
   * Our Lanczos kernel (SIMD), built from src/media/wasm/resample.c: it works in the JPEG decoder's
   * memory. Without it JPEGs are resampled by the JavaScript kernel, as before it (the benchmark's baseline).
   */
  resampler?: WebAssembly.Module
}

export interface ImageCodecs {
  load(): Promise<CodecModules>
}
