import smartcrop from 'smartcrop'
import type { Rect, View } from './raster'
import { boxDownscale, resampleInto } from './resample'

/** smartcrop analyses a copy this many pixels on its shorter side (it would prescale to the same itself). */
const ANALYSIS_SIDE = 256

export interface RgbaImage {
  width: number
  height: number
  data: Uint8ClampedArray
}

function downscale(view: View, width: number, height: number): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4)
  resampleInto(view, { x: 0, y: 0, width: view.width, height: view.height }, data, width, { x: 0, y: 0, width, height })
  return { width, height, data }
}

/** smartcrop's image operations over plain RGBA, instead of a browser canvas. */
const operations = {
  open: async (image: RgbaImage) => image,
  resample: async (image: RgbaImage | Promise<RgbaImage>, width: number, height: number) => {
    const img = await image
    return downscale(
      {
        raster: { ...img, channels: 4 },
        width: img.width,
        height: img.height,
        base: 0,
        dx: 1,
        dy: img.width,
        transposed: false,
      },
      Math.max(1, ~~width),
      Math.max(1, ~~height),
    )
  },
  getData: async (image: RgbaImage | Promise<RgbaImage>) => image,
}

/** The small copy smartcrop analyses; made once per source, used for every canvas. */
export function analysisImage(
  view: View,
  downscale: (view: View, width: number, height: number) => Uint8ClampedArray = boxDownscale,
): RgbaImage {
  const scale = Math.min(1, ANALYSIS_SIDE / Math.min(view.width, view.height))
  const width = Math.max(1, Math.round(view.width * scale))
  const height = Math.max(1, Math.round(view.height * scale))
  return { width, height, data: downscale(view, width, height) }
}

/**
 * The centre of the most interesting region for a `tw` x `th` canvas, in the view's coordinates:
 * smartcrop (edges, skin tones, saturation, rule of thirds) over the small copy of the image.
 */
export async function smartFocus(
  view: View,
  small: RgbaImage,
  tw: number,
  th: number,
): Promise<{ x: number; y: number }> {
  const result = await (smartcrop as unknown as { crop(i: RgbaImage, o: object): Promise<{ topCrop: Rect }> }).crop(
    small,
    {
      width: tw,
      height: th,
      imageOperations: operations,
    },
  )
  const c = result.topCrop
  const kx = view.width / small.width
  const ky = view.height / small.height
  return { x: (c.x + c.width / 2) * kx, y: (c.y + c.height / 2) * ky }
}
