import Foundation
import Imaging
import Testing

@Suite struct GarmentColoursTests {
    /// A garment (a body and two sleeves, as `TestImages.photo` draws) of `garment(x, y)` on
    /// `background`, with a photo's grain.
    func photo(background: [UInt8], garment: @escaping (_ x: Int, _ y: Int) -> [UInt8]) -> Bitmap {
        let width = 192, height = 256
        return TestImages.grained(width: width, height: height) { x, y in
            let inBody = x >= width * 3 / 10 && x < width * 7 / 10 && y >= height / 5 && y < height * 17 / 20
            let inSleeves = x >= width / 8 && x < width * 7 / 8 && y >= height / 5 && y < height * 2 / 5
            return inBody || inSleeves ? garment(x, y) : background
        }
    }

    /// CIEDE2000 against the test data of Sharma, Wu and Dalal (2005), pairs 1, 7, 17 and 25.
    @Test(arguments: [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ])
    func ciede2000MatchesPublishedPairs(pair: ((Double, Double, Double), (Double, Double, Double), Double)) {
        let (one, two, expected) = pair
        let first = CIELab(lightness: one.0, a: one.1, b: one.2), second = CIELab(lightness: two.0, a: two.1, b: two.2)
        #expect(abs(first.difference(to: second) - expected) < 0.0001)
        #expect(abs(second.difference(to: first) - expected) < 0.0001)
    }

    /// The table of nearest references written in the source is the one the references make.
    @Test func writtenColourTableIsTheComputedOne() {
        #expect(ColourTableCells.storedLetters.count == 4096)
        #expect(ColourTableCells.storedLetters == ColourTableCells.computedLetters())
    }

    /// A white shirt on a red bed under warm, dim light is white: the photo's own white is
    /// taken as white, and the bed is no part of the garment.
    @Test func whiteShirtOnARedBedIsWhite() {
        let colours = GarmentColours(measuring: photo(background: [150, 25, 35]) { _, _ in [196, 186, 168] })
        #expect(colours.main == .white)
        #expect(colours.onGarment)
        #expect(!colours.colours.contains { $0.colour == .red })
        #expect(colours.colours.first.map { $0.colour == .white && $0.share > 0.8 } == true)
    }

    /// A grey shirt on a magenta bed that holds the top of the red and blue channels stays
    /// grey: the bed's colour is far from any light's, so its cast is not taken off the picture
    /// (which turned the shirt cyan-green, named blue, green or multicolour).
    @Test func greyShirtOnAMagentaBedIsGrey() {
        let colours = GarmentColours(measuring: photo(background: [225, 60, 165]) { _, _ in [150, 150, 150] })
        #expect(colours.main == .grey, "\(colours)")
        #expect(colours.colours.first.map { $0.colour == .grey && $0.share > 0.8 } == true, "\(colours)")
    }

    /// Daylight and a tungsten bulb lie where the CIE puts them against the Planckian locus
    /// (Duv +0.0032 and 0.0000); a red bed's colour lies far below it, a yellow wall's far above.
    @Test func lightsLieOnThePlanckianLocusAndSurfacesDoNot() {
        let daylight = LightChromaticity(linearRed: 1, green: 1, blue: 1)
        #expect(abs(daylight.u - 0.1978) < 0.0001 && abs(daylight.v - 0.3122) < 0.0001, "\(daylight)")
        #expect(abs(daylight.distanceFromPlanckianLocus - 0.0032) < 0.0001)
        let tungsten = LightChromaticity(u: 0.2560, v: 0.3495)
        #expect(abs(tungsten.distanceFromPlanckianLocus) < 0.0002)
        #expect(LightChromaticity(linearRed: 0.8, green: 0.1, blue: 0.12).distanceFromPlanckianLocus < -0.02)
        #expect(LightChromaticity(linearRed: 0.8, green: 0.75, blue: 0.15).distanceFromPlanckianLocus > 0.02)
    }

    @Test(arguments: [
        ([38, 42, 78], ClothingColour.navy), ([70, 100, 150], .blue), ([24, 24, 26], .black),
        ([120, 120, 122], .grey), ([170, 35, 40], .red), ([60, 120, 60], .green),
    ] as [([UInt8], ClothingColour)])
    func plainGarmentsOnAWallAreNamed(colour: [UInt8], name: ClothingColour) {
        let colours = GarmentColours(measuring: photo(background: [236, 234, 230]) { _, _ in colour })
        #expect(colours.main == name, "\(colours)")
        #expect(colours.colours.count <= 3 && colours.colours.map(\.share).reduce(0, +) <= 1.000001)
    }

    /// Black and white stripes are multicoloured; a blue garment lit from one side (one half
    /// darker, navy by lightness) is one colour in two lights, not two colours.
    @Test func stripesAreMulticolouredAndShadeIsNot() {
        let stripes = GarmentColours(measuring: photo(background: [200, 170, 130]) { _, y in
            y / 8 % 2 == 0 ? [20, 20, 22] : [235, 235, 235]
        })
        #expect(stripes.main == .multicolour)
        let shaded = GarmentColours(measuring: photo(background: [236, 234, 230]) { x, _ in
            x < 96 ? [40, 55, 110] : [70, 100, 160]
        })
        #expect(shaded.main == .blue || shaded.main == .navy, "\(shaded)")
        #expect(shaded.main != .multicolour)
    }

    /// Checks finer than the recipe's working copy can hold (three pixels of the thumbnail, a
    /// pixel and a bit of the 96-pixel copy) are still black and white: the colours are
    /// measured on the thumbnail's own pixels, where averaged down they were one grey.
    @Test func fineChecksAreBlackAndWhite() {
        let checks = GarmentColours(measuring: photo(background: [200, 170, 130]) { x, y in
            (x / 3 + y / 3) % 2 == 0 ? [20, 20, 22] : [235, 235, 235]
        })
        #expect(checks.main == .multicolour, "\(checks)")
        #expect(Set(checks.colours.prefix(2).map(\.colour)) == [.black, .white], "\(checks)")
    }

    /// A print of five colours in equal parts, no two of them shades of one colour, has no
    /// main colour: it is multicoloured, though no second colour holds a quarter of it.
    @Test func aPrintWithoutAMajorityIsMulticoloured() {
        let inks: [[UInt8]] = [[170, 35, 40], [60, 120, 60], [70, 100, 150], [225, 195, 40], [120, 60, 150]]
        let print = GarmentColours(measuring: photo(background: [236, 234, 230]) { x, y in inks[(x + y) / 12 % 5] })
        #expect(print.main == .multicolour, "\(print)")
        #expect(print.colours.count == 3 && print.colours.allSatisfy { $0.share < 0.25 }, "\(print)")
    }

    /// An image in Fashion-MNIST's form has no background to separate: the whole image is
    /// measured, and said so.
    @Test func fashionMNISTImageIsMeasuredWhole() throws {
        let bytes = try ImageFile.read("Fixtures/fashion-sample.png")
        let thumbnail = try ImageProcessor().process(bytes: bytes, recipe: FashionMNISTRecipe()).thumbnail
        let colours = try ImageProcessor().colours(ofThumbnail: thumbnail)
        #expect(!colours.onGarment)
        #expect(colours.colours.first?.colour == .black)
    }

    /// Import prepares the tensor and measures the colours from one segmentation: the same
    /// tensor as `prepare`, the same colours as measuring on their own.
    @Test func oneSegmentationGivesTheSameTensorAndColours() {
        let image = photo(background: [236, 234, 230]) { _, _ in [170, 35, 40] }
        let both = PhotoRecipe().prepareMeasuring(image)
        #expect(both.tensor == PhotoRecipe().prepare(image))
        #expect(both.colours == GarmentColours(measuring: image))
        #expect(both.colours.main == .red)
    }
}
