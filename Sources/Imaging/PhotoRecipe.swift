#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// For real photos, which look nothing like Fashion-MNIST: a dark-ish garment on a light,
/// busy, multi-coloured background, not centred. The garment is separated from the
/// background at a small working size, then cut out of the prepared image, centred on a
/// square, inverted to Fashion-MNIST's light-on-black and contrast-stretched.
///
/// An image whose border is black already has Fashion-MNIST's form and is prepared as the
/// baseline recipe does. Otherwise, steps (after ../shared/notes/photo-prep-findings.md):
/// 1. Background colours: k-means (k = 3) over a border band (7% of the shorter side;
///    version 1 and 2: 4%); clusters under 10% of the band are dropped.
/// 2. Initial mask: colour distance to the nearest background colour above half its Otsu
///    threshold (version 1: above the threshold), closed, the centre-weighted heaviest
///    8-connected component, holes filled; a central rectangle when that is tiny.
/// 3. Refinement, five rounds: colour histograms (12 levels per channel) of the mask and of
///    the rest plus the band give a per-pixel log-likelihood ratio, smoothed; the new mask is
///    ratio > 0 away from the band, opened, heaviest component, holes filled.
///    Version 4: when that mask covers less than half of the middle of the picture (the
///    middle 40% of each side), the background colours that each match (RGB distance under
///    45) more than half of the middle are left out (unless that leaves none), steps 2 and 3
///    run again, and the new mask is kept if it covers more of the middle.
/// 4. At the prepared image's resolution: v = 1 - gray inside the mask, stretched between its
///    1st and 99th percentiles and raised to the power 0.8 (version 1 and 2: 1), background 0;
///    crop to the mask, pad to a centred square, area-average to 28x28, divide by the 99th
///    percentile of the non-zero values, clip.
public struct PhotoRecipe: PrepRecipe, Equatable {
    public let name = "photo"
    /// 2 since the initial mask takes pixels at half the Otsu threshold of their distance to
    /// the background (1: at the threshold). On a garment of several colours the threshold
    /// often separates its most distinct part from everything else (the red stripes of navy
    /// trousers on a blue blanket, the print of a T-shirt), and the refinement, which learns
    /// the garment's colours from the initial mask, then keeps only that part; starting from
    /// more of the picture it trims back to the garment instead.
    /// 3 since the border band that gives the background's colours is 7% of the shorter side,
    /// not 4%, and the stretched values are raised to the power 0.8. At 4% the band of the
    /// 96-pixel working copy is 3 pixels deep, and on a patterned floor, a rug or a tiled wall
    /// it often missed one of the background's colours, which then became part of the garment;
    /// the power lifts the mid-tones, where Fashion-MNIST's garments are brighter than the
    /// stretched photos were. Chosen on the held-out training photos with the photo@2 model,
    /// not retrained: 219 of 257 right with photo@2, 228 with the wider band, 230 with both
    /// (docs/prep-recipes.md).
    /// 4 since a mask that misses the middle of the picture is made again without the
    /// background colours that fill the middle. A garment that fills the frame runs off the
    /// edges, so the band holds its colour and step 1 takes that for background: a dark
    /// T-shirt became its white print, or a strip of floor at one edge (60 of the 3,068
    /// training photos, most of them dark T-shirts, trousers and long sleeves). With the photo@3
    /// model, not retrained: 221 of 257 held-out training photos right with photo@3, 224 with
    /// this; its constants were left at round values (docs/prep-recipes.md).
    /// Versions 1 to 3 stay, for models trained on them.
    public let version: Int
    public let summary = "garment segmented from the background by colour, cropped, centred, inverted to light-on-black"

    public static let currentVersion = 4

    /// Longest side of the copy the segmentation works on; small, because it dominates the cost.
    public var workingSide: Int

    /// Smallest intensity range (of 255) the contrast stretch spreads over.
    static let minimumSpread: Float = 48
    /// Version 3 raises the stretched values to this power: below 1, it brightens mid-tones.
    static let midToneExponent: Float = 0.8

    public init(workingSide: Int = 96, version: Int = PhotoRecipe.currentVersion) {
        precondition((1...Self.currentVersion).contains(version), "photo recipe versions are 1...\(Self.currentVersion)")
        self.workingSide = workingSide
        self.version = version
    }

    public func prepare(_ image: Bitmap) -> PreparedTensor {
        let rgb = image.rgb()
        let working = workingCopy(ofRGB: rgb)
        return prepare(image, rgb: rgb, mask: garmentMask(width: working.width, height: working.height, colours: working.samples))
    }

    /// The tensor, the garment's colours and the image's fingerprints (`ImageFingerprint`)
    /// from one working copy and one segmentation, as import needs all three.
    public func prepareMeasuring(_ image: Bitmap) -> (tensor: PreparedTensor, colours: GarmentColours,
                                                     fingerprint: ImageFingerprint) {
        let rgb = image.rgb()
        let working = workingCopy(ofRGB: rgb)
        let mask = garmentMask(width: working.width, height: working.height, colours: working.samples)
        return (prepare(image, rgb: rgb, mask: mask), GarmentColours(rgb: rgb, working: working.samples, mask: mask),
                ImageFingerprint(width: working.width, height: working.height, samples: working.samples, mask: mask))
    }

    /// The garment's colours and the image's fingerprints from one working copy and one
    /// segmentation, without the tensor: what import measures beside another recipe's tensor.
    public func measure(_ image: Bitmap) -> (colours: GarmentColours, fingerprint: ImageFingerprint) {
        let rgb = image.rgb()
        let working = workingCopy(ofRGB: rgb)
        let mask = garmentMask(width: working.width, height: working.height, colours: working.samples)
        return (GarmentColours(rgb: rgb, working: working.samples, mask: mask),
                ImageFingerprint(width: working.width, height: working.height, samples: working.samples, mask: mask))
    }

    /// An input that already looks like Fashion-MNIST (a light object on a black field, e.g.
    /// a data-set image saved as a file; no mask) must not be inverted again: it gets the baseline.
    private func prepare(_ image: Bitmap, rgb: Bitmap, mask: Mask?) -> PreparedTensor {
        guard let mask else { return FashionMNISTRecipe().prepare(image) }
        return render(rgb, mask: mask)
    }

    private func segmenter(width: Int, height: Int, colours: [Float]) -> Segmenter {
        var segmenter = Segmenter(width: width, height: height, colours: colours)
        segmenter.initialThresholdScale = version >= 2 ? 0.5 : 1
        segmenter.bandShare = version >= 3 ? 0.07 : 0.04
        segmenter.reconsidersTheMiddle = version >= 4
        return segmenter
    }

    /// The working-size copy the segmentation runs on: RGB samples, 0...255.
    package func workingCopy(ofRGB rgb: Bitmap) -> (width: Int, height: Int, samples: [Float]) {
        let working = Bitmap.fittedSize(width: rgb.width, height: rgb.height, longestSide: workingSide)
        let samples = AreaResampler.resize(rgb.pixels, width: rgb.width, height: rgb.height, channels: 3,
                                           toWidth: working.width, toHeight: working.height) { Float($0) }
        return (working.width, working.height, samples)
    }

    /// The garment's mask on a working-size copy's RGB samples, as `prepare` finds it; nil
    /// for an image with Fashion-MNIST's black border, where there is no background to
    /// separate it from.
    package func garmentMask(width: Int, height: Int, colours: [Float]) -> Mask? {
        if Segmenter.hasBlackBorder(width: width, height: height, colours: colours) { return nil }
        return segmenter(width: width, height: height, colours: colours).segment()
    }

    /// Step 4: the mask applied to the full-resolution image.
    ///
    /// Its arithmetic is fixed (see `Segmenter`); what is cheap here is how it is reached: a
    /// pixel's inverted gray is a whole number, so its stretched value is looked up in a table
    /// of the 256 the stretch can give (each computed as the stretch computes it), written
    /// straight into the square canvas; the 99th percentile of the lit values is picked
    /// without sorting them all.
    private func render(_ image: Bitmap, mask: Mask) -> PreparedTensor {
        let side = PreparedTensor.side
        let scaleX = Double(image.width) / Double(mask.width)
        let scaleY = Double(image.height) / Double(mask.height)
        let box = (mask.boundingBox ?? PixelRect(x: 0, y: 0, width: mask.width, height: mask.height))
            .scaled(x: scaleX, y: scaleY)
        let crop = PixelRect(x: max(0, box.x), y: max(0, box.y),
                             width: min(image.width, box.maxX) - max(0, box.x),
                             height: min(image.height, box.maxY) - max(0, box.y))

        // Inverted gray of every pixel of the crop inside the mask (0 marks one outside: an
        // inside pixel's value is kept one higher); the mask is sampled bilinearly so its edge
        // follows the garment rather than the working grid.
        let cropCount = crop.width * crop.height
        let shade = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: cropCount)
        defer { shade.deallocate() }
        var histogram = [Int](repeating: 0, count: 256)
        let maskValues = mask.bits.map { $0 ? Float(1) : 0 }
        let columns = Self.samplingTable(count: crop.width, offset: crop.x, scale: scaleX, limit: mask.width)
        let rows = Self.samplingTable(count: crop.height, offset: crop.y, scale: scaleY, limit: mask.height)
        // The mask blended across one working row at every column of the crop, for the two
        // working rows the current crop row lies between: each is made again only when the
        // crop reaches another working row, and each value is the blend computed as ever.
        let blends = UnsafeMutableBufferPointer<Float>.allocate(capacity: 2 * crop.width)
        defer { blends.deallocate() }
        let top = blends.baseAddress!, bottom = top + crop.width
        var topRow = -1, bottomRow = -1
        func blend(workingRow: Int, into target: UnsafeMutablePointer<Float>) {
            let row = workingRow * mask.width
            for x in 0..<crop.width {
                let (x0, x1, fx) = columns[x]
                target[x] = maskValues[row + x0] + (maskValues[row + x1] - maskValues[row + x0]) * fx
            }
        }
        image.pixels.withUnsafeBufferPointer { pixels in
            histogram.withUnsafeMutableBufferPointer { histogram in
                for y in 0..<crop.height {
                    let (y0, y1, fy) = rows[y]
                    if y0 != topRow { blend(workingRow: y0, into: top); topRow = y0 }
                    if y1 != bottomRow { blend(workingRow: y1, into: bottom); bottomRow = y1 }
                    let imageRow = (crop.y + y) * image.width + crop.x
                    let out = shade.baseAddress! + y * crop.width
                    for x in 0..<crop.width {
                        guard top[x] + (bottom[x] - top[x]) * fy >= 0.5 else { out[x] = 0; continue }
                        let p = (imageRow + x) * 3
                        let value = 255 - Int(Bitmap.luma(pixels[p], pixels[p + 1], pixels[p + 2]))
                        out[x] = UInt16(value + 1)
                        histogram[value] += 1
                    }
                }
            }
        }


        // Contrast stretch between the 1st and 99th percentiles inside the mask. A nearly flat
        // garment would stretch to all zeros (or to amplified noise): the spread has a floor,
        // so such a garment comes out as a bright silhouette instead.
        let high = Float(Self.percentile(histogram, 0.99))
        let low = min(Float(Self.percentile(histogram, 0.01)), high - Self.minimumSpread)
        let spread = high - low
        // Index 0: outside the mask; index v + 1: inverted gray v, stretched.
        var stretched = [Float](repeating: 0, count: 257)
        for value in 0..<256 {
            let linear = max(0, min(1, (Float(value) - low) / spread))
            stretched[value + 1] = version >= 3 ? powf(linear, Self.midToneExponent) : linear
        }

        // Centre on a square canvas, then area-average down to 28x28.
        let square = max(crop.width, crop.height)
        var canvas = [Float](repeating: 0, count: square * square)
        let offsetX = (square - crop.width) / 2, offsetY = (square - crop.height) / 2
        canvas.withUnsafeMutableBufferPointer { canvas in
            stretched.withUnsafeBufferPointer { stretched in
                for y in 0..<crop.height {
                    let source = shade.baseAddress! + y * crop.width
                    let target = canvas.baseAddress! + (y + offsetY) * square + offsetX
                    for x in 0..<crop.width { target[x] = stretched[Int(source[x])] }
                }
            }
        }
        var values = AreaResampler.resize(canvas, width: square, height: square, channels: 1, toWidth: side, toHeight: side)

        // Normalise so the garment's bright end reaches 1, as Fashion-MNIST's do.
        if let reference = Self.litPercentile(values, 0.99), reference > 0 {
            values = values.map { min(1, $0 / reference) }
        }
        return PreparedTensor(values: values, cropBox: crop)
    }

    /// Of the values above 0 in ascending order, the one at index
    /// `min(count - 1, Int(Double(count) * fraction))`; nil when none is above 0. Found by
    /// keeping the few largest (those from that index up) rather than sorting them all.
    static func litPercentile(_ values: [Float], _ fraction: Double) -> Float? {
        let lit = values.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        guard lit > 0 else { return nil }
        let rank = min(lit - 1, Int(Double(lit) * fraction))
        // The `keep` largest, in ascending order; the smallest of them is the one at `rank`.
        let keep = lit - rank
        var largest: [Float] = []
        largest.reserveCapacity(keep + 1)
        for value in values where value > 0 {
            if largest.count == keep {
                guard value > largest[0] else { continue }
                largest.removeFirst()
            }
            let at = largest.firstIndex { $0 > value } ?? largest.count
            largest.insert(value, at: at)
        }
        return largest[0]
    }

    /// For each of `count` pixels from `offset` on the full-size axis: the two working-size
    /// neighbours and the weight of the second, for bilinear sampling.
    static func samplingTable(count: Int, offset: Int, scale: Double, limit: Int) -> [(Int, Int, Float)] {
        (0..<count).map { i in
            let position = (Double(offset + i) + 0.5) / scale - 0.5
            let first = max(0, min(limit - 1, Int(position.rounded(.down))))
            let second = min(limit - 1, first + 1)
            return (first, second, Float(max(0, min(1, position - Double(first)))))
        }
    }

    /// The value below which `fraction` of the histogram's samples lie.
    static func percentile(_ histogram: [Int], _ fraction: Double) -> Int {
        let total = histogram.reduce(0, +)
        guard total > 0 else { return 0 }
        let target = Int(Double(total - 1) * fraction)
        var seen = 0
        for (value, count) in histogram.enumerated() {
            seen += count
            if seen > target { return value }
        }
        return histogram.count - 1
    }
}
