/// The main colours of the garment in an image: one palette name for the garment (`main`)
/// and up to three names with their shares of its area and the mean L*a*b* of the pixels
/// each covers. Measured on the garment only, with the mask the photo recipe finds (so a
/// white shirt on a red bed is white), on the stored thumbnail's own pixels; on the whole
/// image where it finds none (an image with Fashion-MNIST's black border), and `onGarment`
/// says so.
///
/// How the garment is named, after the photo's own white is taken as white (`WhitePatch`):
/// 1. Chroma first. A pixel with C* under `achromaticChroma` is black, grey or white; a
///    garment is chromatic when at least `chromaticShare` of it is not (highlights, shadows
///    and seams are grey on any garment).
/// 2. A chromatic garment is named by its chromatic pixels, each named by the nearest
///    reference colour (`ClothingColour`), blue below `navyLightness` being navy; the name
///    covering most of them wins. It is multicoloured instead when another name holds
///    `multicolourShare` of them and is not a shade of it (`ClothingColour.isShade(of:)`),
///    or when the winner and its shades together do not cover half of them: no one colour
///    covers most of the garment (a check of five colours, none of them a majority).
/// 3. An achromatic garment is named by the median lightness of its achromatic pixels:
///    black under `blackLightness`, white from `whiteLightness`, grey between; multicoloured
///    when both the dark and the light part hold `stripeShare` (black and white stripes).
///
/// The pixels are the thumbnail's, not the recipe's working copy's: averaged down to 96
/// pixels, the stripes, checks and prints of a patterned garment blur into one colour that is
/// none of its own (black and white gingham became grey). A sparse grid keeps the cost of the
/// working copy's: every row, every `columnStep`-th pixel, each row starting `rowShift` further
/// right, so that no stripe lines up with the grid.
///
/// The constants are round values chosen on the even rows of bench/colour-labels.tsv and
/// checked on the odd rows (`imaging-tools colours`); the half of step 2 is the palette's
/// meaning of multicolour, not a choice.
public struct GarmentColours: Sendable, Equatable {
    public struct Share: Sendable, Equatable {
        public var colour: ClothingColour
        /// Of the measured area, 0...1.
        public var share: Double
        public var lab: CIELab

        public init(colour: ClothingColour, share: Double, lab: CIELab) {
            self.colour = colour
            self.share = share
            self.lab = lab
        }
    }

    /// The one name for the garment.
    public var main: ClothingColour
    /// Largest share first; at most three, none under `minimumShare`.
    public var colours: [Share]
    /// False when no garment was found and the whole image was measured.
    public var onGarment: Bool

    /// The version of the rule that measures the colours: 1 measured the working copy's pixels
    /// and knew no majority in step 2; 2 took the cast of any bright end off the picture, a red
    /// bed's too (`WhitePatch`); 3 is this. A catalogue whose colours an older rule measured
    /// gets them again from `wardrobe colours`.
    public static let rule = 3

    /// A name covering less of the garment than this is not one of its main colours.
    public static let minimumShare = 0.1
    static let achromaticChroma = 12.0
    static let chromaticShare = 0.4
    static let multicolourShare = 0.25
    static let stripeShare = 0.1
    static let navyLightness = 30.0
    static let blackLightness = 30.0
    static let whiteLightness = 80.0
    static let columnStep = 20
    static let rowShift = 7

    public init(main: ClothingColour, colours: [Share], onGarment: Bool) {
        self.main = main
        self.colours = colours
        self.onGarment = onGarment
    }

    /// Measures `image` (the stored thumbnail) with the photo recipe's segmentation.
    public init(measuring image: Bitmap, recipe: PhotoRecipe = PhotoRecipe()) {
        let rgb = image.rgb()
        let working = recipe.workingCopy(ofRGB: rgb)
        let mask = recipe.garmentMask(width: working.width, height: working.height, colours: working.samples)
        self.init(rgb: rgb, working: working.samples, mask: mask)
    }

    /// From the thumbnail's RGB pixels, the working copy's RGB samples (0...255) the mask was
    /// found on (which give the photo's white), and the garment's mask on them (nil: the
    /// whole image).
    package init(rgb: Bitmap, working samples: [Float], mask: Mask?) {
        precondition(rgb.channels == 3, "colours are measured on RGB")
        let white = WhitePatch(samples: samples)
        var pixels: [(lab: CIELab, name: ClothingColour)] = []
        pixels.reserveCapacity(rgb.width * rgb.height / Self.columnStep + 1)
        rgb.pixels.withUnsafeBufferPointer { bytes in
            Self.forEachMeasured(in: rgb, mask: mask, columnStep: Self.columnStep, rowShift: Self.rowShift) { at in
                let (lab, level) = white.adapted(bytes[at], bytes[at + 1], bytes[at + 2])
                pixels.append((lab, Self.name(lab, nearestReference: ColourTable.shared.name(level: level))))
            }
        }
        self.init(main: Self.main(of: pixels), colours: Self.shares(of: pixels), onGarment: mask != nil)
    }

    /// Calls `body` with the offset in `rgb.pixels` of each measured pixel: those under the
    /// mask (found at the working size, so scaled to the thumbnail's), on every row, every
    /// `columnStep`-th from a first column that moves `rowShift` further right each row.
    @inline(__always)
    static func forEachMeasured(in rgb: Bitmap, mask: Mask?, columnStep: Int, rowShift: Int, _ body: (Int) -> Void) {
        guard let mask else {
            for y in 0..<rgb.height {
                for x in stride(from: y * rowShift % columnStep, to: rgb.width, by: columnStep) { body(3 * (y * rgb.width + x)) }
            }
            return
        }
        let maskColumns = (0..<rgb.width).map { $0 * mask.width / rgb.width }
        mask.withBytes { bits in
            for y in 0..<rgb.height {
                let maskRow = y * mask.height / rgb.height * mask.width
                for x in stride(from: y * rowShift % columnStep, to: rgb.width, by: columnStep) where bits[maskRow + maskColumns[x]] != 0 {
                    body(3 * (y * rgb.width + x))
                }
            }
        }
    }

    /// Every pixel of the thumbnail adapted to the photo's white (as 4-bit levels, shown as
    /// bytes), with its name (nil off the garment): what the naming sees, for looking at a
    /// photo it names wrongly (`imaging-tools colour-sheet`).
    package static func namedPixels(measuring image: Bitmap, recipe: PhotoRecipe = PhotoRecipe())
        -> (width: Int, height: Int, adapted: [UInt8], names: [ClothingColour?]) {
        let rgb = image.rgb()
        let working = recipe.workingCopy(ofRGB: rgb)
        let mask = recipe.garmentMask(width: working.width, height: working.height, colours: working.samples)
        let white = WhitePatch(samples: working.samples)
        var adapted = [UInt8](repeating: 0, count: rgb.pixels.count)
        var names = [ClothingColour?](repeating: nil, count: rgb.width * rgb.height)
        for at in stride(from: 0, to: rgb.pixels.count, by: 3) {
            let (_, level) = white.adapted(rgb.pixels[at], rgb.pixels[at + 1], rgb.pixels[at + 2])
            (adapted[at], adapted[at + 1], adapted[at + 2]) = (UInt8(level.x * 17), UInt8(level.y * 17), UInt8(level.z * 17))
        }
        forEachMeasured(in: rgb, mask: mask, columnStep: 1, rowShift: 0) { at in
            let (lab, level) = white.adapted(rgb.pixels[at], rgb.pixels[at + 1], rgb.pixels[at + 2])
            names[at / 3] = name(lab, nearestReference: ColourTable.shared.name(level: level))
        }
        return (rgb.width, rgb.height, adapted, names)
    }

    /// A pixel's own name: by lightness when achromatic, else its nearest reference's.
    static func name(_ lab: CIELab, nearestReference: ClothingColour) -> ClothingColour {
        if lab.chroma < achromaticChroma {
            return lab.lightness < blackLightness ? .black : lab.lightness < whiteLightness ? .grey : .white
        }
        if nearestReference == .blue || nearestReference == .navy {
            return lab.lightness < navyLightness ? .navy : .blue
        }
        return nearestReference
    }

    /// The garment's one name (steps 1 to 3 above).
    static func main(of pixels: [(lab: CIELab, name: ClothingColour)]) -> ClothingColour {
        guard !pixels.isEmpty else { return .multicolour }
        var counts = [Int](repeating: 0, count: ClothingColour.allCases.count)
        var lightness: [Double] = []
        lightness.reserveCapacity(pixels.count)
        for pixel in pixels {
            if pixel.lab.chroma < achromaticChroma { lightness.append(pixel.lab.lightness) } else { counts[pixel.name.index] += 1 }
        }
        let chromatic = pixels.count - lightness.count
        if Double(chromatic) >= chromaticShare * Double(pixels.count) {
            let ranked = ClothingColour.allCases.filter { counts[$0.index] > 0 }
                .sorted { counts[$0.index] > counts[$1.index] || (counts[$0.index] == counts[$1.index] && $0.rawValue < $1.rawValue) }
            let top = ranked[0]
            let other = ranked.dropFirst().first {
                Double(counts[$0.index]) >= multicolourShare * Double(chromatic) && !$0.isShade(of: top)
            }
            let family = ranked.filter { $0.isShade(of: top) }.reduce(0) { $0 + counts[$1.index] }
            return other == nil && 2 * family >= chromatic ? top : .multicolour
        }
        let dark = lightness.count { $0 < blackLightness }, light = lightness.count { $0 >= whiteLightness }
        let enough = stripeShare * Double(lightness.count)
        if Double(dark) >= enough && Double(light) >= enough { return .multicolour }
        let median = selectRank(lightness.count / 2, in: &lightness)
        return median < blackLightness ? .black : median < whiteLightness ? .grey : .white
    }

    /// Up to three names by their share of all the pixels, with their mean L*a*b*.
    static func shares(of pixels: [(lab: CIELab, name: ClothingColour)]) -> [Share] {
        var sums = [(count: Int, l: Double, a: Double, b: Double)](repeating: (0, 0, 0, 0), count: ClothingColour.allCases.count)
        for pixel in pixels {
            let sum = sums[pixel.name.index]
            sums[pixel.name.index] = (sum.count + 1, sum.l + pixel.lab.lightness, sum.a + pixel.lab.a, sum.b + pixel.lab.b)
        }
        let total = Double(max(1, pixels.count))
        return ClothingColour.allCases.filter { sums[$0.index].count > 0 }.map { name in
            let sum = sums[name.index], n = Double(sum.count)
            return Share(colour: name, share: n / total, lab: CIELab(lightness: sum.l / n, a: sum.a / n, b: sum.b / n))
        }
        .filter { $0.share >= minimumShare }
        .sorted { $0.share > $1.share || ($0.share == $1.share && $0.colour.rawValue < $1.colour.rawValue) }
        .prefix(3).map { $0 }
    }
}

/// The nearest reference colour of every sRGB colour, 16 levels a channel (4,096 cells, each
/// named by its centre): naming a pixel is then a lookup, not a hundred CIEDE2000 distances.
/// Only the hue name is looked up; chroma and lightness, which decide black, grey, white and
/// navy, come from the pixel's own L*a*b*. The cells are written out below (one letter a cell,
/// `ColourTable.letters`) rather than computed at each start, which cost import 70 ms a
/// process; `computed()` makes them from the references, and a test holds the two equal
/// (`imaging-tools colour-table` prints them again after a change of the references).
struct ColourTable: Sendable {
    static let shared = ColourTable(names: Array(ColourTableCells.letters.utf8).map { ColourTable.colour(letter: $0) })
    private let names: [ClothingColour]

    init(names: [ClothingColour]) {
        precondition(names.count == 4096, "one name a cell")
        self.names = names
    }

    /// The table made from the references (slow: 4,096 cells, each against every reference).
    static func computed() -> ColourTable {
        ColourTable(names: (0..<4096).map { cell in
            let centre = { (level: Int) in Double(level * 16) + 7.5 }
            return ClothingColour.nearestReference(to: CIELab(red: centre(cell >> 8), green: centre(cell >> 4 & 15),
                                                              blue: centre(cell & 15)))
        })
    }

    /// The cells as `ColourTableCells.letters` writes them.
    var letters: String { String(decoding: names.map { UInt8(ascii: "a") + UInt8($0.index) }, as: UTF8.self) }

    static func colour(letter: UInt8) -> ClothingColour { ClothingColour.allCases[Int(letter - UInt8(ascii: "a"))] }

    /// The nearest reference of the cell at 4-bit levels `level` (red, green, blue).
    func name(level: SIMD3<Int>) -> ClothingColour { names[level.x << 8 | level.y << 4 | level.z] }
}

extension ColourTableCells {
    /// The letters `ColourTable.computed()` makes from the references, as this file writes them.
    public static func computedLetters() -> String { ColourTable.computed().letters }
    /// The letters as written.
    public static var storedLetters: String { letters }
}
