import SeededRandom

// The photo-like pictures that bench-imaging and bench-import encode as JPEG.

/// A photo-like scene: a light wall and floor (darker to the right) with sensor grain, and a
/// striped garment off centre. The grain keeps the entropy-coded data near what a camera writes
/// (about 4 MB for 12 megapixels at quality 92), which is what decoding time depends on.
/// Interleaved RGB, `width * height * 3` bytes; the same seed gives the same picture.
/// bench-import keeps the files it makes from these: a change to the picture must come with a
/// new `PHOTO_LIKE_VERSION` in mk/import.mk, so that old files are made again.
public func photoLikePixels(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var state = (seed &+ 1) &* SplitMix64.gamma
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    let centreX = width * (40 + Int(seed % 21)) / 100, centreY = height / 2
    let halfBody = width * 17 / 100, halfSleeves = width * 30 / 100
    let bodyTop = centreY - height * 3 / 10, bodyBottom = centreY + height * 3 / 10
    let sleeveBottom = centreY - height / 8
    let stripe = max(1, height / (40 + Int(seed % 30)))
    let floorTop = height * 3 / 4
    let garment: (Int, Int, Int) = [(60, 70, 130), (150, 40, 40), (40, 110, 60), (30, 30, 30)][Int(seed % 4)]
    pixels.withUnsafeMutableBufferPointer { out in
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let grain = Int(state % 24) - 12
                let light = 256 - 64 * x / width
                let dx = abs(x - centreX)
                let inBody = dx < halfBody && y >= bodyTop && y < bodyBottom
                let inSleeves = dx < halfSleeves && y >= bodyTop && y < sleeveBottom
                var (r, g, b): (Int, Int, Int)
                if inBody || inSleeves {
                    let lighter = (y / stripe) % 2 == 0 ? 0 : 35
                    (r, g, b) = (garment.0 + lighter, garment.1 + lighter, garment.2 + lighter)
                } else if y >= floorTop {
                    (r, g, b) = (lit(190, light), lit(170, light), lit(140, light))
                } else {
                    (r, g, b) = (lit(235, light), lit(232, light), lit(225, light))
                }
                let i = (y * width + x) * 3
                out[i] = UInt8(clamping: r + grain)
                out[i + 1] = UInt8(clamping: g + grain)
                out[i + 2] = UInt8(clamping: b + grain)
            }
        }
    }
    return pixels
}

/// `level` (0...255) under `light` (256 is full light). Spelled out because in Swift `>>` binds
/// tighter than `*`: `level * light >> 8` would shift first and make every wall black.
@inline(__always)
private func lit(_ level: Int, _ light: Int) -> Int {
    (level * light) >> 8
}
