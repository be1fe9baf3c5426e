/// Straight (non-premultiplied) alpha blended over a solid background, in the stored
/// (gamma-encoded) values, as browsers and image viewers do. HEIF and WebP decoders hand
/// over interleaved RGBA; the result is RGB.
enum AlphaCompositing {
    static func over(_ background: [UInt8], rgba: [UInt8], width: Int, height: Int) -> Bitmap {
        precondition(background.count == 3 && rgba.count == width * height * 4, "RGBA pixels over an RGB background")
        let behind = background.map(UInt32.init)
        let rgb = rgba.withUnsafeBufferPointer { source in
            [UInt8](overwriting: width * height * 3) { out in
                for i in 0..<(width * height) {
                    let alpha = UInt32(source[4 * i + 3])
                    for c in 0..<3 {
                        let value = UInt32(source[4 * i + c]) * alpha + behind[c] * (255 - alpha)
                        out[3 * i + c] = UInt8((value + 127) / 255)
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, channels: 3, pixels: rgb)
    }
}
