/** wrangler (CompiledWasm rule) and @cloudflare/vitest-pool-workers turn a `.wasm` import into a compiled module. */
declare module '*.wasm' {
  const module: WebAssembly.Module
  export default module
}
