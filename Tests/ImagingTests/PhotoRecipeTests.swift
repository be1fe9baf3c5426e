import Foundation
import Imaging
import SeededRandom
import Testing

@Suite struct PhotoRecipeTests {
    let recipe = PhotoRecipe()

    /// Mean of the tensor inside a 28x28 rectangle.
    func mean(_ values: [Float], x: Range<Int>, y: Range<Int>) -> Float {
        var sum: Float = 0
        for row in y { for column in x { sum += values[row * 28 + column] } }
        return sum / Float(x.count * y.count)
    }

    @Test func garmentBecomesLightOnBlackCroppedAndCentred() {
        let photo = TestImages.photo(width: 240, height: 320)
        let tensor = recipe.prepare(photo)
        #expect(tensor.values.count == 784 && tensor.values.allSatisfy { (0...1).contains($0) })
        #expect(tensor.values.max() == 1)
        // The garment spans x 30..<210 and y 64..<272 (sleeves from 1/8 to 7/8 of the width).
        let box = tensor.cropBox
        #expect(abs(box.x - 30) <= 6 && abs(box.maxX - 210) <= 6, "\(box)")
        #expect(abs(box.y - 64) <= 6 && abs(box.maxY - 272) <= 6, "\(box)")
        // Wider than tall after cropping? No: 180x208, so the square pads left and right by 2 columns.
        // The body (dark garment, so bright after inversion) fills the middle; the corners
        // beside the body below the sleeves are background, i.e. 0.
        #expect(mean(tensor.values, x: 10..<18, y: 12..<26) > 0.5)
        #expect(mean(tensor.values, x: 0..<4, y: 20..<28) < 0.05)
        #expect(mean(tensor.values, x: 24..<28, y: 20..<28) < 0.05)
        // Sleeves reach the top corners.
        #expect(mean(tensor.values, x: 2..<6, y: 1..<5) > 0.5)
    }

    @Test func offCentreGarmentIsCentred() {
        // A dark square in the upper left of a light photo.
        var photo = Bitmap(width: 200, height: 150, filledWith: [230, 225, 220])
        for y in 20..<80 { for x in 30..<90 { photo.set(x: x, y: y, to: [50, 40, 40]) } }
        let tensor = recipe.prepare(photo)
        var total: Float = 0, sumX: Float = 0, sumY: Float = 0
        for y in 0..<28 {
            for x in 0..<28 {
                let v = tensor.values[y * 28 + x]
                total += v; sumX += v * Float(x); sumY += v * Float(y)
            }
        }
        #expect(abs(sumX / total - 13.5) < 0.6 && abs(sumY / total - 13.5) < 0.6)
        // photo@2's lower initial threshold keeps working pixels the square only partly covers,
        // so its crop reaches about one working pixel (two here) past the edge: 86% lit, not 90%.
        #expect(tensor.values.filter { $0 > 0.5 }.count > 650, "the square fills the frame")
    }

    @Test func severalBackgroundColoursAreAllBackground() {
        // Wall (left, light) and curtain (right, saturated), dark garment across the middle.
        var photo = Bitmap(width: 300, height: 300, filledWith: [0, 0, 0])
        for y in 0..<300 {
            for x in 0..<300 {
                let garment = x >= 100 && x < 200 && y >= 60 && y < 250
                photo.set(x: x, y: y, to: garment ? [30, 30, 35] : x < 150 ? [235, 235, 230] : [200, 60, 70])
            }
        }
        let tensor = recipe.prepare(photo)
        #expect(abs(tensor.cropBox.x - 100) <= 4 && abs(tensor.cropBox.maxX - 200) <= 4, "\(tensor.cropBox)")
        // Square padding puts the 100x190 garment in columns ~7..<21; the sides are background.
        #expect(mean(tensor.values, x: 0..<5, y: 0..<28) == 0)
        #expect(mean(tensor.values, x: 23..<28, y: 0..<28) == 0)
        #expect(mean(tensor.values, x: 9..<19, y: 2..<26) > 0.9)
    }

    @Test func grayTinyAndFeaturelessImagesStillGiveATensor() {
        let gray = TestImages.photo(width: 120, height: 90).grayscale()
        #expect(recipe.prepare(gray).values.max() ?? 0 > 0.5)
        let tiny = TestImages.photo(width: 28, height: 28)
        #expect(recipe.prepare(tiny).values.allSatisfy { $0.isFinite && (0...1).contains($0) })
        let blank = Bitmap(width: 64, height: 64, filledWith: [200, 200, 200])
        #expect(recipe.prepare(blank).values.allSatisfy { $0.isFinite && (0...1).contains($0) })
        let oneRow = Bitmap(width: 50, height: 1, filledWith: [10, 20, 30])
        #expect(recipe.prepare(oneRow).values.count == 784)
    }

    @Test func sameInputSameTensor() {
        let photo = TestImages.photo(width: 256, height: 192, seed: 7)
        #expect(recipe.prepare(photo) == recipe.prepare(photo))
    }

    @Test func photoIsTheDefaultRecipe() throws {
        #expect(PrepRecipes.default.name == "photo")
        #expect(try PrepRecipes.named("photo").identity == "photo@4")
        #expect(PrepRecipes.names == ["photo", "fashion-mnist"])
    }

    /// A model trained on photo@1, 2 or 3 is still given that version when it names it; a
    /// version this build does not have is an error naming the known recipes.
    @Test func anEarlierVersionIsFoundByItsFullName() throws {
        #expect(try PrepRecipes.named("photo@1").identity == "photo@1")
        #expect(try PrepRecipes.named("photo@2").identity == "photo@2")
        #expect(try PrepRecipes.named("photo@3").identity == "photo@3")
        #expect(try PrepRecipes.named("photo@4").identity == "photo@4")
        #expect(throws: ImagingError.self) { try PrepRecipes.named("photo@5") }
        #expect(!PrepRecipes.all.contains { ["photo@1", "photo@2", "photo@3"].contains($0.identity) },
                "'all' (evaluate --recipe all) is the current versions")
    }
}

/// What photo@2 changed: the initial mask starts from half the Otsu threshold, so a garment
/// of several colours is not cut down to its most distinct part. On the demo's checked shirt
/// (blue-gray checks on gray boards), photo@1 keeps a strip of the placket and hem; photo@2
/// the whole shirt.
@Suite struct PhotoRecipeVersionTests {
    @Test func photo2FindsTheWholeShirtWherePhoto1FoundAStrip() throws {
        let path = FileManager.default.currentDirectoryPath + "/Fixtures/photos/shirt/00143901-a14c-4600-960f-7747b4a3a8cd.jpg"
        let processed = try ImageProcessor().process(contentsOf: path, recipes: [PhotoRecipe(version: 1), PhotoRecipe(version: 2)])
        let strip = processed.tensors[0].cropBox, whole = processed.tensors[1].cropBox
        #expect(whole.x <= strip.x && whole.y <= strip.y && whole.maxX >= strip.maxX && whole.maxY >= strip.maxY,
                "\(whole) holds \(strip)")
        #expect(whole.width * whole.height >= 3 * strip.width * strip.height, "\(whole) against \(strip)")
        // Lit (garment) values cover far more of the tensor.
        let lit = processed.tensors.map { $0.values.filter { $0 > 0.2 }.count }
        #expect(lit[1] > 2 * lit[0], "lit values: photo@1 \(lit[0]), photo@2 \(lit[1])")
    }
}

/// What photo@3 changed: the background's colours come from a band 7% of the shorter side
/// deep, not 4%. A garment on a rug with a strip of floor around it (a common way to shoot
/// one) has only floor in the 4% band, so photo@2 takes the rug for garment and keeps the
/// whole rug; the 7% band reaches the rug, and photo@3 keeps the garment alone.
@Suite struct PhotoRecipeBandTests {
    /// 400x300: floor 15 pixels deep at every edge (3.6 pixels of the 96x72 working copy,
    /// whose 4% band is 3 pixels and 7% band 5), a red rug inside it, a blue shirt on the rug.
    static func garmentOnARug() -> Bitmap {
        TestImages.grained(width: 400, height: 300) { x, y in
            let floor = x < 15 || x >= 385 || y < 15 || y >= 285
            let garment = x >= 130 && x < 270 && y >= 80 && y < 230
            return floor ? [225, 215, 200] : garment ? [40, 60, 150] : [150, 45, 40]
        }
    }

    @Test func photo3FindsTheGarmentOnARugWherePhoto2KeptTheRug() {
        let photo = Self.garmentOnARug()
        let rug = PhotoRecipe(version: 2).prepare(photo).cropBox
        let garment = PhotoRecipe(version: 3).prepare(photo).cropBox
        #expect(rug.width > 330 && rug.height > 230, "photo@2 keeps the rug: \(rug)")
        #expect(abs(garment.x - 130) <= 6 && abs(garment.maxX - 270) <= 6, "\(garment)")
        #expect(abs(garment.y - 80) <= 6 && abs(garment.maxY - 230) <= 6, "\(garment)")
    }

    /// photo@3 also raises the stretched values to the power 0.8: the same mask, brighter
    /// mid-tones, the bright end still 1 and the background still 0.
    @Test func photo3LiftsTheMidTones() {
        let photo = TestImages.photo(width: 240, height: 320)
        let (before, after) = (PhotoRecipe(version: 2).prepare(photo), PhotoRecipe(version: 3).prepare(photo))
        #expect(before.cropBox == after.cropBox)
        #expect(after.values.max() == 1)
        #expect(zip(before.values, after.values).allSatisfy { $0 == 0 ? $1 == 0 : $1 >= $0 })
        #expect(after.values.reduce(0, +) > before.values.reduce(0, +))
    }
}

/// photo@4: a garment that fills the frame touches the border, so the band takes its colour
/// for background and the mask becomes whatever differs from it.
@Suite struct PhotoRecipeMiddleTests {
    /// 400x300: a light floor along the top 40 rows; below it a dark T-shirt that runs off the
    /// left, right and bottom edges; a white print 100x60 in its middle.
    static func darkShirtFillingTheFrame() -> Bitmap {
        TestImages.grained(width: 400, height: 300) { x, y in
            let print = x >= 150 && x < 250 && y >= 120 && y < 180
            return y < 40 ? [205, 185, 150] : print ? [235, 235, 235] : [25, 25, 35]
        }
    }

    @Test func photo4FindsTheShirtWherePhoto3KeptItsPrint() {
        let photo = Self.darkShirtFillingTheFrame()
        let print = PhotoRecipe(version: 3).prepare(photo).cropBox
        let shirt = PhotoRecipe(version: 4).prepare(photo).cropBox
        #expect(print.width < 120 && print.height < 80, "photo@3 keeps the print: \(print)")
        // The band (7% of the shorter side, 21 pixels) is never garment, so the shirt's box
        // stops there on the three sides it runs off.
        #expect(shirt.x <= 30 && shirt.maxX >= 370 && shirt.maxY >= 270, "\(shirt)")
        #expect(abs(shirt.y - 40) <= 6, "\(shirt)")
    }

    /// A garment on a floor of another colour is found the first time, so photo@4 makes
    /// exactly what photo@3 did.
    @Test func photo4LeavesAGarmentFoundTheFirstTimeAsItWas() {
        for photo in [PhotoRecipeBandTests.garmentOnARug(), TestImages.photo(width: 240, height: 320)] {
            #expect(PhotoRecipe(version: 4).prepare(photo) == PhotoRecipe(version: 3).prepare(photo))
        }
    }
}

@Suite struct PhotoRecipeOnDataSetImagesTests {
    @Test func fashionMNISTImagesAreNotInvertedAgain() throws {
        // A light object on black is already in the model's form: the photo recipe leaves it
        // as the baseline does.
        var image = Bitmap(width: 28, height: 28, filledWith: [0])
        for y in 4..<24 { for x in 8..<20 { image.set(x: x, y: y, to: [200]) } }
        #expect(PhotoRecipe().prepare(image) == FashionMNISTRecipe().prepare(image))
        let enlarged = image.rgb().resized(width: 112, height: 112)
        #expect(PhotoRecipe().prepare(enlarged).values == FashionMNISTRecipe().prepare(enlarged).values)
    }
}

@Suite struct RecipeRobustnessTests {
    /// Odd sizes and random content: every recipe returns 784 finite values in 0...1.
    @Test func anyPictureGivesAValidTensor() {
        var random = SplitMix64(seed: 11)
        let sizes = [(1, 1), (2, 3), (300, 7), (7, 300), (33, 33), (256, 192), (97, 131)]
        for (width, height) in sizes {
            for channels in [1, 3] {
                let pixels = (0..<(width * height * channels)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                let bitmap = Bitmap(width: width, height: height, channels: channels, pixels: pixels)
                for recipe in PrepRecipes.all {
                    let tensor = recipe.prepare(bitmap)
                    #expect(tensor.values.count == 784)
                    #expect(tensor.values.allSatisfy { $0.isFinite && (0...1).contains($0) }, "\(recipe.name) \(width)x\(height)")
                    #expect(tensor.cropBox.x >= 0 && tensor.cropBox.maxX <= width && tensor.cropBox.maxY <= height)
                    #expect(!TerminalPreview.tensor(tensor.values, style: .ansi256).isEmpty)
                }
                #expect(!TerminalPreview.image(bitmap, columns: 40, style: .trueColor).isEmpty)
            }
        }
    }
}
