#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Steps 1 to 3 of the photo recipe: finds the garment in a small RGB image.
///
/// Every classification a catalogue holds was made by this arithmetic, so its floating-point
/// steps keep their operations and order (a sum taken in another order, or a product folded
/// into a fused multiply-add, would move a few masks by a pixel and so a few tensors).
/// What is made faster is everything around them: masks and histograms as bytes and counts
/// in raw buffers, the centre weight's exponentials taken once per quadrant, the band
/// visited alone.
struct Segmenter {
    let width: Int
    let height: Int
    /// RGB, 0...255, one per pixel.
    let pixels: [SIMD3<Float>]
    /// Each pixel's colour-histogram bin (12 levels per channel), computed once.
    let bins: [Int32]
    /// The initial mask takes the pixels farther from the background than the Otsu
    /// threshold of those distances times this (see `PhotoRecipe.version`).
    var initialThresholdScale: Float = 1
    /// The border band's thickness as a share of the shorter side (see `PhotoRecipe.version`).
    var bandShare: Double = 0.04
    /// Whether a mask that misses the middle of the picture is made again without the
    /// background colours that fill the middle (see `reconsideringTheMiddle`).
    var reconsidersTheMiddle = false

    /// `colours`: interleaved RGB, 0...255.
    init(width: Int, height: Int, colours: [Float]) {
        self.width = width
        self.height = height
        let levels = Self.histogramLevels
        let count = width * height
        precondition(colours.count == 3 * count, "colour count does not match the size")
        var pixels = [SIMD3<Float>](repeating: .zero, count: count)
        var bins = [Int32](repeating: 0, count: count)
        colours.withUnsafeBufferPointer { colours in
            pixels.withUnsafeMutableBufferPointer { pixels in
                bins.withUnsafeMutableBufferPointer { bins in
                    for i in 0..<count {
                        let c = SIMD3(colours[3 * i], colours[3 * i + 1], colours[3 * i + 2])
                        pixels[i] = c
                        let r = min(levels - 1, Int(c.x) * levels / 256)
                        let g = min(levels - 1, Int(c.y) * levels / 256)
                        let b = min(levels - 1, Int(c.z) * levels / 256)
                        bins[i] = Int32((r * levels + g) * levels + b)
                    }
                }
            }
        }
        self.pixels = pixels
        self.bins = bins
    }

    static let backgroundClusters = 3
    static let minimumClusterShare: Float = 0.10
    static let refinementRounds = 5
    /// Refinement stops early once fewer than this share of pixels change in a round.
    static let settledShare: Float = 0.005
    static let histogramLevels = 12
    /// Below this share of the image a mask is taken as a failed segmentation.
    static let minimumMaskShare: Float = 0.02

    var pixelCount: Int { width * height }

    /// The middle of the picture: this share of each side is left out on either side of it.
    static let middleInset = 0.3
    /// A mask covering less than this share of the middle has missed the garment or most of it.
    static let missedMiddleShare: Float = 0.5
    /// A background colour matching more than this share of the middle is taken for the garment's.
    static let middleColourShare: Float = 0.5
    /// How far (RGB distance, of 255 per channel) a pixel may be from a colour and match it.
    static let colourMatchRadius: Float = 45

    func segment() -> Mask {
        let band = borderBand()
        let centreWeight = self.centreWeight()
        let background = backgroundColours(band: band)
        let mask = segment(background: background, band: band, centreWeight: centreWeight)
        guard reconsidersTheMiddle else { return mask }
        return reconsideringTheMiddle(mask, background: background, band: band, centreWeight: centreWeight)
    }

    /// A garment that fills the frame touches the border, so its own colour is among the band's
    /// and is taken for background: the mask is then what differs from it, a print in the middle
    /// or a strip of floor at one edge. When the mask covers less than half of the middle and
    /// some background colours each match more than half of it, the garment is segmented again
    /// with those left out of the background (not all of them: then there is nothing to tell the
    /// garment from), and the new mask is kept if it covers more of the middle.
    func reconsideringTheMiddle(_ mask: Mask, background: [SIMD3<Float>], band: Mask,
                                centreWeight: [Float]) -> Mask {
        let middle = middleIndices()
        let covered = Self.share(of: middle) { mask.bits[$0] }
        guard covered < Self.missedMiddleShare, background.count > 1 else { return mask }
        let radiusSquared = Self.colourMatchRadius * Self.colourMatchRadius
        // Each colour on its own: k-means often splits one garment's colour in two.
        let rest = background.filter { colour in
            Self.share(of: middle) { Self.distanceSquared(pixels[$0], colour) < radiusSquared }
                <= Self.middleColourShare
        }
        guard !rest.isEmpty, rest.count < background.count else { return mask }
        let again = segment(background: rest, band: band, centreWeight: centreWeight)
        return Self.share(of: middle) { again.bits[$0] } > covered ? again : mask
    }

    /// The pixels of the middle of the picture (see `middleInset`), row by row.
    func middleIndices() -> [Int] {
        let insetX = Int(Double(width) * Self.middleInset), insetY = Int(Double(height) * Self.middleInset)
        return (insetY..<(height - insetY)).flatMap { y in ((insetX..<(width - insetX)).map { y * width + $0 }) }
    }

    static func share<T>(of items: [T], where matches: (T) -> Bool) -> Float {
        items.isEmpty ? 0 : Float(items.count { matches($0) }) / Float(items.count)
    }

    /// Steps 2 and 3 against the given background colours.
    func segment(background: [SIMD3<Float>], band: Mask, centreWeight: [Float]) -> Mask {
        var mask = initialMask(background: background, centreWeight: centreWeight)
        for _ in 0..<Self.refinementRounds {
            guard let refined = refine(mask, band: band, centreWeight: centreWeight) else { break }
            let changed = refined.withBytes { new in
                mask.withBytes { old in
                    var changed = 0
                    for i in 0..<new.count { changed += Int(new[i] ^ old[i]) }
                    return changed
                }
            }
            mask = refined
            // Settled: another round would move a few edge pixels at most.
            if Float(changed) < Self.settledShare * Float(pixelCount) { break }
        }
        return mask
    }

    /// Whether most of the border band of `colours` (interleaved RGB, 0...255) is pure black
    /// (every channel at most 10 of 255), as around a Fashion-MNIST image (whose garment may
    /// touch an edge or two) and almost never around a photo, where sensor noise and JPEG keep
    /// even a black floor above that. Static, and read from the colours as they are: such an
    /// image is not segmented, so it need not be made into a segmenter first.
    static func hasBlackBorder(width: Int, height: Int, colours: [Float]) -> Bool {
        var black = 0, total = 0
        colours.withUnsafeBufferPointer { colours in
            // The 4% band of every recipe version: this test was measured with it.
            forEachInBand(width: width, height: height, share: 0.04) { index in
                let i = 3 * index
                total += 1
                if max(colours[i], colours[i + 1], colours[i + 2]) <= 10 { black += 1 }
            }
        }
        return total > 0 && Float(black) >= 0.6 * Float(total)
    }

    /// The border band's thickness: `share` of the shorter side, rounded, at least one pixel.
    static func bandThickness(width: Int, height: Int, share: Double) -> Int {
        max(1, Int((Double(min(width, height)) * share).rounded()))
    }

    /// Calls `body` with the index of every pixel within the band's thickness of an edge, row
    /// by row, left to right, visiting only those.
    @inline(__always)
    static func forEachInBand(width: Int, height: Int, share: Double, _ body: (Int) -> Void) {
        let thickness = bandThickness(width: width, height: height, share: share)
        for y in 0..<height {
            let row = y * width
            if y < thickness || y >= height - thickness {
                for x in 0..<width { body(row + x) }
            } else {
                // x < thickness, then x >= width - thickness (the two meet on a narrow image).
                for x in 0..<min(thickness, width) { body(row + x) }
                for x in max(thickness, width - thickness)..<width { body(row + x) }
            }
        }
    }

    /// The border band (see `bandThickness`).
    func borderBand() -> Mask {
        Mask(width: width, height: height) { bits in
            Self.forEachInBand(width: width, height: height, share: bandShare) { bits[$0] = 1 }
        }
    }

    /// 1 at the centre, e^-1 at the middle of each edge: favours the component a
    /// photographer put in the middle over a large one along the border.
    ///
    /// Mirror-symmetric to the bit: x + 0.5 and cx are exact halves, so u at column
    /// `width - 1 - x` is exactly -u at column x (and v likewise), the squares are equal and
    /// each exponential is taken once for the four pixels that share it.
    func centreWeight() -> [Float] {
        var weight = [Float](repeating: 0, count: pixelCount)
        let width = self.width, height = self.height
        let cx = Float(width) / 2, cy = Float(height) / 2
        weight.withUnsafeMutableBufferPointer { weight in
            for y in 0..<(height + 1) / 2 {
                let v = (Float(y) + 0.5 - cy) / cy
                let upper = y * width, lower = (height - 1 - y) * width
                for x in 0..<(width + 1) / 2 {
                    let u = (Float(x) + 0.5 - cx) / cx
                    let value = expf(-(u * u + v * v))
                    let mirrored = width - 1 - x
                    weight[upper + x] = value; weight[upper + mirrored] = value
                    weight[lower + x] = value; weight[lower + mirrored] = value
                }
            }
        }
        return weight
    }

    /// Step 1: k-means over the band's colours, seeded at luminance quantiles so the result
    /// does not depend on chance; small clusters are dropped.
    func backgroundColours(band: Mask) -> [SIMD3<Float>] {
        var samples = [SIMD3<Float>]()
        for i in 0..<pixelCount where band.bits[i] { samples.append(pixels[i]) }
        // Seeds: the colours at luminance quantiles 1/6, 1/2 and 5/6, found through a
        // luminance histogram rather than a sort.
        let luminance = samples.map { min(255, max(0, Int(0.299 * $0.x + 0.587 * $0.y + 0.114 * $0.z))) }
        var histogram = [Int](repeating: 0, count: 256)
        for value in luminance { histogram[value] += 1 }
        var centres = (0..<Self.backgroundClusters).map { k -> SIMD3<Float> in
            let target = (2 * k + 1) * samples.count / (2 * Self.backgroundClusters)
            var seen = 0, level = 0
            while level < 255 && seen + histogram[level] <= target { seen += histogram[level]; level += 1 }
            return samples[luminance.firstIndex(of: level) ?? 0]
        }
        var counts = [Int](repeating: 0, count: centres.count)
        for _ in 0..<10 {
            let (sums, assigned) = Self.assign(samples, to: centres)
            counts = assigned
            let moved = (0..<centres.count).map { counts[$0] > 0 ? sums[$0] / Float(counts[$0]) : centres[$0] }
            if moved == centres { break }
            centres = moved
        }
        let kept = (0..<centres.count).filter { Float(counts[$0]) >= Self.minimumClusterShare * Float(samples.count) }
        return kept.isEmpty ? centres : kept.map { centres[$0] }
    }

    /// One k-means step: each sample goes to its nearest centre (`nearest`), and each centre
    /// gets the sum of its samples, added in the samples' order, and their count.
    ///
    /// The three centres the segmentation always starts with are held in registers, and each
    /// sample is added to all three sums, as itself to its own and as zeros to the others: a
    /// sum at or above zero plus zero is that sum, so each sum is what adding its own samples
    /// alone gives, while no add waits on a sum stored to memory by the one before.
    static func assign(_ samples: [SIMD3<Float>], to centres: [SIMD3<Float>]) -> (sums: [SIMD3<Float>], counts: [Int]) {
        precondition(centres.count == 3, "k-means starts with three centres")
        let (c0, c1, c2) = (centres[0], centres[1], centres[2])
        var s0 = SIMD3<Float>.zero, s1 = SIMD3<Float>.zero, s2 = SIMD3<Float>.zero
        var n0 = 0, n1 = 0, n2 = 0
        let zero = SIMD3<Float>.zero
        samples.withUnsafeBufferPointer { samples in
            for sample in samples {
                // As `nearest`: the first of the smallest distances (they are finite).
                let d0 = distanceSquared(sample, c0), d1 = distanceSquared(sample, c1), d2 = distanceSquared(sample, c2)
                var best = 0, bestDistance = d0
                if d1 < bestDistance { best = 1; bestDistance = d1 }
                if d2 < bestDistance { best = 2 }
                s0 += best == 0 ? sample : zero
                s1 += best == 1 ? sample : zero
                s2 += best == 2 ? sample : zero
                n0 += best == 0 ? 1 : 0
                n1 += best == 1 ? 1 : 0
                n2 += best == 2 ? 1 : 0
            }
        }
        return ([s0, s1, s2], [n0, n1, n2])
    }

    /// Squared RGB distance between two colours.
    @inline(__always)
    static func distanceSquared(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let d = a - b
        return (d * d).sum()
    }

    static func nearest(_ colour: SIMD3<Float>, in centres: [SIMD3<Float>]) -> (index: Int, distanceSquared: Float) {
        var best = 0
        var bestDistance = Float.infinity
        for (index, centre) in centres.enumerated() {
            let distance = distanceSquared(colour, centre)
            if distance < bestDistance { bestDistance = distance; best = index }
        }
        return (best, bestDistance)
    }

    /// Step 2: Otsu on the distance to the background, then clean-up.
    func initialMask(background: [SIMD3<Float>], centreWeight: [Float]) -> Mask {
        let distance = pixels.map { Self.nearest($0, in: background).distanceSquared.squareRoot() }
        let threshold = Self.otsuThreshold(distance) * initialThresholdScale
        let raw = Mask(width: width, height: height, bits: distance.map { $0 > threshold })
        let mask = raw.closed().heaviestComponent(weight: centreWeight).holesFilled()
        return isTiny(mask) ? centralRectangle() : mask
    }

    func isTiny(_ mask: Mask) -> Bool {
        Float(mask.area) < Self.minimumMaskShare * Float(pixelCount)
    }

    func centralRectangle() -> Mask {
        var mask = Mask(width: width, height: height)
        for y in (height / 10)..<(height - height / 10) {
            for x in (width / 5)..<(width - width / 5) { mask.bits[y * width + x] = true }
        }
        return mask
    }

    /// The threshold that maximises the between-class variance of `values` (128 bins).
    static func otsuThreshold(_ values: [Float]) -> Float {
        let bins = 128
        let maximum = values.max() ?? 0
        guard maximum > 0 else { return 0 }
        var histogram = [Float](repeating: 0, count: bins)
        for value in values { histogram[min(bins - 1, Int(value / maximum * Float(bins)))] += 1 }
        let total = Float(values.count)
        let sumAll = histogram.enumerated().reduce(Float(0)) { $0 + Float($1.offset) * $1.element }
        var weightBelow: Float = 0, sumBelow: Float = 0
        var best: Float = -1, bestBin = 0
        for bin in 0..<bins {
            weightBelow += histogram[bin]
            sumBelow += Float(bin) * histogram[bin]
            let weightAbove = total - weightBelow
            guard weightBelow > 0, weightAbove > 0 else { continue }
            let meanBelow = sumBelow / weightBelow
            let meanAbove = (sumAll - sumBelow) / weightAbove
            let between = weightBelow * weightAbove * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best { best = between; bestBin = bin }
        }
        return (Float(bestBin) + 1) / Float(bins) * maximum
    }

    /// Step 3, one round; nil when the refined mask would be tiny (keep the previous one).
    func refine(_ mask: Mask, band: Mask, centreWeight: [Float]) -> Mask? {
        let levels = Self.histogramLevels
        let binCount = levels * levels * levels
        let count = pixelCount
        // Colour histograms of the mask away from the band and of the rest, counted as whole
        // numbers (far below 2^24, so as floats exactly what adding 1 at a time gives).
        var foreground = [Int32](repeating: 0, count: binCount)
        var background = [Int32](repeating: 0, count: binCount)
        var foregroundCount = 0
        mask.withBytes { mask in
            band.withBytes { band in
                bins.withUnsafeBufferPointer { bins in
                    foreground.withUnsafeMutableBufferPointer { foreground in
                        background.withUnsafeMutableBufferPointer { background in
                            for i in 0..<count {
                                let bin = Int(bins[i])
                                if mask[i] & (band[i] ^ 1) != 0 {
                                    foreground[bin] += 1; foregroundCount += 1
                                } else {
                                    background[bin] += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        let foregroundTotal = Float(foregroundCount), backgroundTotal = Float(count - foregroundCount)
        guard foregroundTotal > 0, backgroundTotal > 0 else { return nil }
        // A small prior keeps unseen colours from deciding by log(0). The ratio is worked out
        // once per bin that occurs, not once per pixel.
        let prior: Float = 0.5
        let foregroundScale = 1 / (foregroundTotal + prior * Float(binCount))
        let backgroundScale = 1 / (backgroundTotal + prior * Float(binCount))
        var binRatio = [Float](repeating: 0, count: binCount)
        for bin in 0..<binCount where foreground[bin] != 0 || background[bin] != 0 {
            let f = (Float(foreground[bin]) + prior) * foregroundScale
            let b = (Float(background[bin]) + prior) * backgroundScale
            binRatio[bin] = logf(f / b)
        }
        var ratio = [Float](repeating: 0, count: count)
        binRatio.withUnsafeBufferPointer { binRatio in
            bins.withUnsafeBufferPointer { bins in
                ratio.withUnsafeMutableBufferPointer { ratio in
                    for i in 0..<count { ratio[i] = binRatio[Int(bins[i])] }
                }
            }
        }
        let smoothed = Self.smooth(ratio, width: width, height: height)
        let candidate = band.withBytes { band in
            smoothed.withUnsafeBufferPointer { smoothed in
                Mask(width: width, height: height) { bits in
                    for i in 0..<count { bits[i] = (smoothed[i] > 0 ? 1 : 0) & (band[i] ^ 1) }
                }
            }
        }
        let refined = candidate.opened().heaviestComponent(weight: centreWeight).holesFilled()
        return isTiny(refined) ? nil : refined
    }

    /// 3x3 binomial blur (about sigma 0.8 px, i.e. ~2 px at 256), edges clamped. Each value
    /// is `0.25 * before + 0.5 * value + 0.25 * after`, taken in that order, across and then
    /// down; the inner columns and rows are written without clamping, so they vectorise.
    static func smooth(_ values: [Float], width: Int, height: Int) -> [Float] {
        let count = width * height
        precondition(values.count == count, "value count does not match the size")
        let horizontal = UnsafeMutableBufferPointer<Float>.allocate(capacity: count)
        defer { horizontal.deallocate() }
        values.withUnsafeBufferPointer { values in
            for y in 0..<height {
                let s = values.baseAddress! + y * width, t = horizontal.baseAddress! + y * width
                let last = width - 1
                t[0] = 0.25 * s[0] + 0.5 * s[0] + 0.25 * s[min(last, 1)]
                if width > 2 {
                    for x in 1..<last { t[x] = 0.25 * s[x - 1] + 0.5 * s[x] + 0.25 * s[x + 1] }
                }
                if last > 0 { t[last] = 0.25 * s[last - 1] + 0.5 * s[last] + 0.25 * s[last] }
            }
        }
        return [Float](overwriting: count) { out in
            for y in 0..<height {
                let rows = horizontal.baseAddress!
                let up = rows + max(0, y - 1) * width, centre = rows + y * width
                let down = rows + min(height - 1, y + 1) * width, t = out.baseAddress! + y * width
                for x in 0..<width { t[x] = 0.25 * up[x] + 0.5 * centre[x] + 0.25 * down[x] }
            }
        }
    }
}
