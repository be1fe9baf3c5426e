/// Straight (non-premultiplied) alpha blended over a solid background, in the stored
/// (gamma-encoded) values, as browsers and image viewers do. Decoders hand over pixels of one
/// or three colour samples and an alpha: libpng a row at a time, HEIF and WebP whole images.
struct AlphaCompositing {
    /// The background's samples, one (gray) or three (RGB).
    private let behind: [UInt32]

    init(over background: [UInt8]) {
        precondition(background.count == 1 || background.count == 3, "a gray or RGB background")
        behind = background.map(UInt32.init)
    }

    var colours: Int { behind.count }

    /// Blends `count` pixels (`colours` samples and an alpha each) into `out`, where each
    /// takes `colours` samples and they lie `step` pixels apart (a pass of an Adam7-interlaced
    /// PNG fills every eighth, fourth or second pixel of a row).
    func blend(_ pixels: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>, step: Int = 1) {
        let colours = self.colours, stride = colours + 1
        behind.withUnsafeBufferPointer { behind in
            for i in 0..<count {
                let source = pixels + i * stride, target = out + i * step * colours
                let alpha = UInt32(source[colours])
                for c in 0..<colours {
                    target[c] = UInt8((UInt32(source[c]) * alpha + behind[c] * (255 - alpha) + 127) / 255)
                }
            }
        }
    }

    /// A whole RGBA image blended over an RGB background.
    func blend(rgba: [UInt8], width: Int, height: Int) -> Bitmap {
        precondition(colours == 3 && rgba.count == width * height * 4, "RGBA pixels over an RGB background")
        let rgb = rgba.withUnsafeBufferPointer { source in
            [UInt8](overwriting: width * height * 3) { out in
                blend(source.baseAddress!, count: width * height, into: out.baseAddress!)
            }
        }
        return Bitmap(width: width, height: height, channels: 3, pixels: rgb)
    }
}
