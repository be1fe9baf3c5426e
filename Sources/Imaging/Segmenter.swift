#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Steps 1 to 3 of the photo recipe: finds the garment in a small RGB image.
struct Segmenter {
    let width: Int
    let height: Int
    /// RGB, 0...255, one per pixel.
    let pixels: [SIMD3<Float>]
    /// Each pixel's colour-histogram bin (12 levels per channel), computed once.
    let bins: [Int32]

    /// `colours`: interleaved RGB, 0...255.
    init(width: Int, height: Int, colours: [Float]) {
        self.width = width
        self.height = height
        let levels = Self.histogramLevels
        var pixels = [SIMD3<Float>](repeating: .zero, count: width * height)
        var bins = [Int32](repeating: 0, count: width * height)
        for i in 0..<(width * height) {
            let c = SIMD3(colours[3 * i], colours[3 * i + 1], colours[3 * i + 2])
            pixels[i] = c
            let r = min(levels - 1, Int(c.x) * levels / 256)
            let g = min(levels - 1, Int(c.y) * levels / 256)
            let b = min(levels - 1, Int(c.z) * levels / 256)
            bins[i] = Int32((r * levels + g) * levels + b)
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

    func segment() -> Mask {
        let band = borderBand()
        let centreWeight = self.centreWeight()
        let background = backgroundColours(band: band)
        var mask = initialMask(background: background, centreWeight: centreWeight)
        for _ in 0..<Self.refinementRounds {
            guard let refined = refine(mask, band: band, centreWeight: centreWeight) else { break }
            let changed = zip(refined.bits, mask.bits).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }
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
        let thickness = bandThickness(width: width, height: height)
        var black = 0, total = 0
        for y in 0..<height {
            for x in 0..<width where Self.isInBand(x: x, y: y, width: width, height: height, thickness: thickness) {
                let i = 3 * (y * width + x)
                total += 1
                if max(colours[i], colours[i + 1], colours[i + 2]) <= 10 { black += 1 }
            }
        }
        return total > 0 && Float(black) >= 0.6 * Float(total)
    }

    /// The border band's thickness: about 4% of the shorter side, at least one pixel.
    static func bandThickness(width: Int, height: Int) -> Int {
        max(1, Int((Double(min(width, height)) * 0.04).rounded()))
    }

    /// Whether pixel (x, y) lies within `thickness` of an edge.
    @inline(__always)
    static func isInBand(x: Int, y: Int, width: Int, height: Int, thickness: Int) -> Bool {
        x < thickness || y < thickness || x >= width - thickness || y >= height - thickness
    }

    /// The border band (see `bandThickness`).
    func borderBand() -> Mask {
        let thickness = Self.bandThickness(width: width, height: height)
        var band = Mask(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where Self.isInBand(x: x, y: y, width: width, height: height, thickness: thickness) {
                band.bits[y * width + x] = true
            }
        }
        return band
    }

    /// 1 at the centre, e^-1 at the middle of each edge: favours the component a
    /// photographer put in the middle over a large one along the border.
    func centreWeight() -> [Float] {
        var weight = [Float](repeating: 0, count: pixelCount)
        let cx = Float(width) / 2, cy = Float(height) / 2
        for y in 0..<height {
            for x in 0..<width {
                let u = (Float(x) + 0.5 - cx) / cx, v = (Float(y) + 0.5 - cy) / cy
                weight[y * width + x] = expf(-(u * u + v * v))
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
            var sums = [SIMD3<Float>](repeating: .zero, count: centres.count)
            counts = [Int](repeating: 0, count: centres.count)
            for sample in samples {
                let nearest = Self.nearest(sample, in: centres).index
                sums[nearest] += sample
                counts[nearest] += 1
            }
            let moved = (0..<centres.count).map { counts[$0] > 0 ? sums[$0] / Float(counts[$0]) : centres[$0] }
            if moved == centres { break }
            centres = moved
        }
        let kept = (0..<centres.count).filter { Float(counts[$0]) >= Self.minimumClusterShare * Float(samples.count) }
        return kept.isEmpty ? centres : kept.map { centres[$0] }
    }

    static func nearest(_ colour: SIMD3<Float>, in centres: [SIMD3<Float>]) -> (index: Int, distanceSquared: Float) {
        var best = 0
        var bestDistance = Float.infinity
        for (index, centre) in centres.enumerated() {
            let d = colour - centre
            let distance = (d * d).sum()
            if distance < bestDistance { bestDistance = distance; best = index }
        }
        return (best, bestDistance)
    }

    /// Step 2: Otsu on the distance to the background, then clean-up.
    func initialMask(background: [SIMD3<Float>], centreWeight: [Float]) -> Mask {
        let distance = pixels.map { Self.nearest($0, in: background).distanceSquared.squareRoot() }
        let threshold = Self.otsuThreshold(distance)
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
        var foreground = [Float](repeating: 0, count: binCount)
        var background = [Float](repeating: 0, count: binCount)
        var foregroundTotal: Float = 0, backgroundTotal: Float = 0
        var inForeground = [Bool](repeating: false, count: pixelCount)
        for i in 0..<pixelCount { inForeground[i] = mask.bits[i] && !band.bits[i] }
        foreground.withUnsafeMutableBufferPointer { foreground in
            background.withUnsafeMutableBufferPointer { background in
                for i in 0..<pixelCount {
                    let bin = Int(bins[i])
                    if inForeground[i] {
                        foreground[bin] += 1; foregroundTotal += 1
                    } else {
                        background[bin] += 1; backgroundTotal += 1
                    }
                }
            }
        }
        guard foregroundTotal > 0, backgroundTotal > 0 else { return nil }
        // A small prior keeps unseen colours from deciding by log(0). The ratio is worked out
        // once per bin that occurs, not once per pixel.
        let prior: Float = 0.5
        let foregroundScale = 1 / (foregroundTotal + prior * Float(binCount))
        let backgroundScale = 1 / (backgroundTotal + prior * Float(binCount))
        var binRatio = [Float](repeating: .nan, count: binCount)
        var ratio = [Float](repeating: 0, count: pixelCount)
        binRatio.withUnsafeMutableBufferPointer { binRatio in
            ratio.withUnsafeMutableBufferPointer { ratio in
                for i in 0..<pixelCount {
                    let bin = Int(bins[i])
                    if binRatio[bin].isNaN {
                        let f = (foreground[bin] + prior) * foregroundScale
                        let b = (background[bin] + prior) * backgroundScale
                        binRatio[bin] = logf(f / b)
                    }
                    ratio[i] = binRatio[bin]
                }
            }
        }
        let smoothed = Self.smooth(ratio, width: width, height: height)
        var bits = [Bool](repeating: false, count: pixelCount)
        for i in 0..<pixelCount { bits[i] = smoothed[i] > 0 && !band.bits[i] }
        let refined = Mask(width: width, height: height, bits: bits).opened()
            .heaviestComponent(weight: centreWeight).holesFilled()
        return isTiny(refined) ? nil : refined
    }

    /// 3x3 binomial blur (about sigma 0.8 px, i.e. ~2 px at 256), edges clamped.
    static func smooth(_ values: [Float], width: Int, height: Int) -> [Float] {
        var horizontal = [Float](repeating: 0, count: values.count)
        for y in 0..<height {
            for x in 0..<width {
                let left = values[y * width + max(0, x - 1)], right = values[y * width + min(width - 1, x + 1)]
                horizontal[y * width + x] = 0.25 * left + 0.5 * values[y * width + x] + 0.25 * right
            }
        }
        var out = [Float](repeating: 0, count: values.count)
        for y in 0..<height {
            let up = max(0, y - 1) * width, down = min(height - 1, y + 1) * width
            for x in 0..<width {
                out[y * width + x] = 0.25 * horizontal[up + x] + 0.5 * horizontal[y * width + x] + 0.25 * horizontal[down + x]
            }
        }
        return out
    }
}

