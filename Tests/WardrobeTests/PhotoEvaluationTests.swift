import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import Testing
import Training
@testable import Wardrobe

@Suite struct PhotoLabelMapTests {
    @Test func parsesFoldersLabelsExclusionsAndComments() throws {
        let map = try PhotoLabelMap(parsing: """
            # comment
            shoes: Sandal, Sneaker, Ankle boot   # three accepted
            pants:Trouser
            hat: none
            """, path: "test.map")
        #expect(map.entries == [
            .init(folder: "shoes", accepted: ["Sandal", "Sneaker", "Ankle boot"]),
            .init(folder: "pants", accepted: ["Trouser"]),
            .init(folder: "hat", accepted: []),
        ])
    }

    /// A map saved on Windows: a byte-order mark and CRLF line ends (the whole file
    /// used to be one line, its labels "Trouser\r\nhat: none").
    /// A folder whose name holds a colon is mapped: the labels follow the last colon, as no
    /// label holds one. '10:30 shoot: Coat' was read as folder '10' with the label '30 shoot: Coat'.
    @Test func aFolderWhoseNameHoldsAColonIsMapped() throws {
        let map = try PhotoLabelMap(parsing: "10:30 shoot: Coat\nC: none\n", path: "colon.map")
        #expect(map.entries == [.init(folder: "10:30 shoot", accepted: ["Coat"]), .init(folder: "C", accepted: [])])
    }

    @Test func readsAMapWithCRLFAndAByteOrderMark() throws {
        let map = try PhotoLabelMap(parsing: "\u{FEFF}shoes: Sneaker\r\n\r\npants: Trouser\r\nhat: none\r\n", path: "win.map")
        #expect(map.entries == [
            .init(folder: "shoes", accepted: ["Sneaker"]),
            .init(folder: "pants", accepted: ["Trouser"]),
            .init(folder: "hat", accepted: []),
        ])
        #expect {
            _ = try PhotoLabelMap(parsing: "a: Bag\r\n\r\nb: Slipper\r\n", path: "win.map")
        } throws: { "\($0)".contains("line 3: 'Slipper'") }
    }

    @Test(arguments: [
        ("shoes Sneaker", "line 1: expected 'folder: Label, Label'"),
        ("shoes: Slipper", "line 1: 'Slipper' is not one of the labels"),
        ("a: Bag\na: Coat", "line 2: folder 'a' is mapped twice"),
        ("hat: none", "no folder is mapped to a label"),
        // Another spelling of a folder's name: evaluate passed it over, train read it.
        ("shoes/: Sneaker", "line 1: 'shoes/' is not the name of a folder in the photos' folder (one name, without '/')"),
        ("shoes: Sneaker\n./shoes: Sandal", "line 2: './shoes' is not the name of a folder"),
        ("..: Sneaker", "line 1: '..' is not the name of a folder"),
        ("shoes: Sneaker\n shoes : Sandal", "line 2: folder 'shoes' is mapped twice"),
        // A no-break space looks like the space of 'Ankle boot': the character is named.
        ("shoes: Ankle\u{A0}boot", "line 1: 'Ankle\u{A0}boot' (with U+00A0, which no label holds) is not one of the labels"),
    ])
    func refusesBadMapsWithTheLine(text: String, message: String) {
        #expect {
            _ = try PhotoLabelMap(parsing: text, path: "bad.map")
        } throws: { error in
            "\(error)".hasPrefix("map bad.map") && "\(error)".contains(message)
        }
    }

    /// A folder named twice is found through a set, not by comparing each line with every
    /// line before it: a map of 20,000 folders took 19 s to read (88 s once names were
    /// compared as bytes), and ten times as many would have looked like a hang.
    @Test func aLongMapIsReadInTimeProportionalToItsLength() throws {
        let text = (0..<20_000).map { "folder \($0): Coat" }.joined(separator: "\n")
        let clock = ContinuousClock()
        var map: PhotoLabelMap?
        let spent = try clock.measure { map = try PhotoLabelMap(parsing: text, path: "long.map") }
        #expect(map?.entries.count == 20_000)
        #expect(spent < .seconds(15), "\(spent)")
        #expect {
            _ = try PhotoLabelMap(parsing: text + "\nfolder 19999: Bag", path: "long.map")
        } throws: { "\($0)" == "map long.map line 20001: folder 'folder 19999' is mapped twice" }
    }

    @Test func theShippedValidationMapMatchesTheREADME() throws {
        let map = try PhotoLabelMap(contentsOf: FileManager.default.currentDirectoryPath + "/bench/clothing-photos.map")
        #expect(map.entries.filter { !$0.accepted.isEmpty }.map(\.folder)
                == ["t-shirt", "pants", "dress", "outwear", "shirt", "longsleeve", "shoes"])
        #expect(map.entries.first { $0.folder == "longsleeve" }?.accepted == ["Pullover", "Shirt"])
        #expect(map.entries.filter { $0.accepted.isEmpty }.map(\.folder) == ["hat", "shorts", "skirt"])
    }
}

/// Evaluation on folders of Fashion-MNIST test images written as files, where the right
/// answers are known: the bundled model gets most of them, the scores add up.
@Suite struct PhotoEvaluationTests {
    static var modelPath: String { FileManager.default.currentDirectoryPath + "/Models/clothing.aimodel" }

    @Test func scoresFoldersAgainstTheMap() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-eval-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let test = try FashionMNIST(split: .test)
        // Folder per kind: trousers (label 1), bags (8), boots (9) as "excluded", plus junk.
        let folders = ["trousers": 1, "bags": 8, "boots": 9]
        for (folder, label) in folders {
            let directory = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let indices = (0..<test.count).filter { Int(test.labels[$0]) == label }.prefix(20)
            // A quarter of each folder's images in a subfolder of it, which counts as the folder.
            let nested = directory.appendingPathComponent("more")
            try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
            for (n, index) in indices.enumerated() {
                let bitmap = Bitmap(width: 28, height: 28, channels: 1, pixels: Array(test.image(index)))
                try Data(try PNGEncoder().encode(bitmap))
                    .write(to: (n % 4 == 0 ? nested : directory).appendingPathComponent("\(index).png"))
            }
        }
        try Data("not an image".utf8).write(to: root.appendingPathComponent("bags/junk.jpg"))
        // A sidecar and a hidden file beside the photos: passed over, as import passes them over.
        try Data("{}".utf8).write(to: root.appendingPathComponent("bags/7.png.json"))
        try Data("x".utf8).write(to: root.appendingPathComponent("trousers/.DS_Store"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("unlisted"), withIntermediateDirectories: true)
        let map = try PhotoLabelMap(parsing: "trousers: Trouser\nbags: Bag, Sandal\nboots: none\ncoats: Coat", path: "m")

        let classifier = try ClothingClassifier(modelAt: Self.modelPath)
        var progressCalls = 0
        let report = try PhotoEvaluation(classifier: classifier, recipes: [FashionMNISTRecipe(), PhotoRecipe()])
            .evaluate(imagesAt: root.path, map: map) { done, total in
                progressCalls += 1
                #expect(total == 41 && done <= total)
            }
        #expect(progressCalls == 41)
        #expect(report.recipes.map(\.recipe) == ["fashion-mnist@1", "photo@4"])
        #expect(report.excluded == ["boots": 20])
        #expect(report.unmapped == ["unlisted"])
        #expect(report.absent == ["coats"], "a mapped folder that is not there is named")
        #expect(report.failures.count == 1 && report.failures[0].path.hasSuffix("bags/junk.jpg"))
        for score in report.recipes {
            #expect(score.photos == 40)
            #expect(score.folders.map(\.folder) == ["trousers", "bags"])
            for folder in score.folders {
                #expect(folder.predictions.reduce(0, +) == 20)
            }
            let bags = score.folders[1]
            #expect(bags.correct == bags.predictions[8] + bags.predictions[5])
            #expect(score.correct == score.folders[0].correct + bags.correct)
            #expect(abs(score.mappedAccuracy - Double(score.correct) / 40) < 1e-12)
            // Data-set images reach the model as the data set holds them: nearly all right.
            #expect(score.mappedAccuracy >= 0.9, "\(score.recipe): \(score.mappedAccuracy)")
        }
    }

    /// Folder names are compared as the system compares them, by bytes: a map's 'café' (one
    /// code point) is not the folder 'cafe\u{301}' (e and a combining accent). It was taken for
    /// mapped and read as no photos: '0 photos in 1 mapped folders', accuracy 0 of 0, status 0.
    /// A folder whose name is not UTF-8 is named in the map by its bytes, and found.
    @Test func folderNamesAreMatchedByTheirBytes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-eval-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let samples = FileManager.default.currentDirectoryPath + "/Fixtures/samples"
        // The folders' names as the system keeps them: e and U+0301; "sho", 0xE9 (Latin-1 é), "s".
        let names: [[UInt8]] = [Array("cafe\u{301}".utf8), [0x73, 0x68, 0x6F, 0xE9, 0x73]]
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let photo = try ImageFile.read(samples + "/test-9-sneaker.jpg")
        for name in names {
            let folder = Array(root.utf8) + [0x2F] + name
            #expect(mkdir(folder.map { CChar(bitPattern: $0) } + [0], 0o755) == 0)
            let file = open((folder + Array("/a.jpg".utf8)).map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT, 0o644)
            #expect(file >= 0 && write(file, photo, photo.count) == photo.count)
            close(file)
        }
        let classifier = try ClothingClassifier(modelAt: Self.modelPath)
        let evaluation = PhotoEvaluation(classifier: classifier, recipes: [PhotoRecipe()])
        let composed = try PhotoLabelMap(parsing: "caf\u{E9}: Sneaker, Sandal, Ankle boot", path: "m")
        #expect {
            _ = try evaluation.evaluate(imagesAt: root, map: composed)
        } throws: { "\($0)" == "none of the mapped folders (caf\u{E9}) is a folder in \(root)" }

        let mapFile = root + ".map"
        defer { try? FileManager.default.removeItem(atPath: mapFile) }
        try Data(names.flatMap { $0 + Array(": Sneaker, Sandal, Ankle boot\n".utf8) }).write(to: URL(fileURLWithPath: mapFile))
        let report = try evaluation.evaluate(imagesAt: root, map: try PhotoLabelMap(contentsOf: mapFile))
        #expect(report.recipes[0].folders.map(\.photos) == [1, 1], "\(report.recipes[0].folders)")
        #expect(report.unmapped.isEmpty && report.absent.isEmpty && report.failures.isEmpty, "\(report)")
    }

    /// A photos' folder that is no folder says why, as import says it, for evaluate and train
    /// alike; a file, a loop of links and a name that is not there were each 'not found'.
    @Test func aPhotoFolderThatIsNoFolderSaysWhy() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-eval-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("pants: Trouser\n".utf8).write(to: URL(fileURLWithPath: root + "/a-file"))
        try FileManager.default.createSymbolicLink(atPath: root + "/loop", withDestinationPath: "loop")
        let classifier = try ClothingClassifier(modelAt: Self.modelPath)
        let map = try PhotoLabelMap(parsing: "pants: Trouser", path: "m")
        for (name, reason) in [("a-file", "is a file, not a folder"),
                               ("loop", "a symbolic link that leads back to itself (a loop of links)"),
                               ("gone", "no such file or folder")] {
            let path = root + "/" + name
            #expect {
                _ = try PhotoEvaluation(classifier: classifier, recipes: [PhotoRecipe()]).evaluate(imagesAt: path, map: map)
            } throws: { "\($0)" == "image folder \(path): \(reason)" }
            #expect {
                _ = try PhotoTrainingSet(directory: path, map: map, recipe: PrepRecipes.photo)
            } throws: { "\($0)" == "photo folder \(path): \(reason)" }
        }
    }

    /// Mapped folders that hold no photo are an error, as for training: the report said
    /// 'mapped accuracy 0.000 (0 of 0)', with status 0, of photos it never saw.
    @Test func mappedFoldersWithoutPhotosAreAnError() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-eval-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/pants", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("a note, passed over by its name\n".utf8).write(to: URL(fileURLWithPath: root + "/pants/notes.txt"))
        let classifier = try ClothingClassifier(modelAt: Self.modelPath)
        #expect {
            _ = try PhotoEvaluation(classifier: classifier, recipes: [PhotoRecipe()])
                .evaluate(imagesAt: root, map: try PhotoLabelMap(parsing: "pants: Trouser\nshoes: Sneaker", path: "m"))
        } throws: { "\($0)" == "photos of the mapped folders (pants) in \(root) not found" }
    }

    @Test func aFolderWithoutMappedSubfoldersIsAnError() throws {
        let classifier = try ClothingClassifier(modelAt: Self.modelPath)
        let map = try PhotoLabelMap(parsing: "pants: Trouser", path: "m")
        #expect(throws: WardrobeError.self) {
            try PhotoEvaluation(classifier: classifier, recipes: [PhotoRecipe()]).evaluate(imagesAt: "/tmp", map: map)
        }
    }
}
