/// Samples of more than 8 bits (10-bit and 12-bit HEIF and AVIF) reduced to 8 bits by
/// rounding to the nearest level, so full scale stays full scale (1023 -> 255) and mid-gray
/// stays mid-gray (512 -> 128); dropping the low bits instead would darken every pixel.
enum HighBitDepth {
    /// `plane` holds little-endian 16-bit samples, `samples` per pixel, rows `stride` bytes
    /// apart, with values up to `2^bits - 1`; `out` receives `samples` bytes per pixel.
    static func reduce(_ plane: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, samples: Int,
                       bits: Int, into out: inout [UInt8]) {
        precondition(bits > 8 && bits <= 16, "between 9 and 16 bits per sample")
        let maximum = UInt32(1) << UInt32(bits) - 1
        let rowSamples = width * samples
        out.withUnsafeMutableBufferPointer { target in
            for y in 0..<height {
                let row = plane + y * stride
                for i in 0..<rowSamples {
                    let value = min(maximum, UInt32(row[2 * i]) | UInt32(row[2 * i + 1]) << 8)
                    target[y * rowSamples + i] = UInt8((value * 255 + maximum / 2) / maximum)
                }
            }
        }
    }
}
