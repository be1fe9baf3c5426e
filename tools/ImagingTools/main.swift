// Developer tools for the Imaging module (not part of the product):
//   imaging-tools contact-sheet [--recipe NAME|all] [--per-folder N] [--out FILE.png] DIR...
//   imaging-tools fixtures [--root DIR]
//   imaging-tools format-fixtures --out DIR   (sources for make fixtures; oriented HEIF/AVIF)
//   imaging-tools colours --labels bench/colour-labels.tsv --photos DIR
//       the garment's main colour against the hand labels: agreement, confusion, cost
//   imaging-tools colour-sheet --labels bench/colour-labels.tsv --photos DIR [--all] [--out FILE.png]
//       the rows named wrongly (or all): thumbnail, what the naming sees, each pixel's name
//   imaging-tools duplicate-set --out DIR PHOTO-DIR...
//       every photo and three variants (resized, recompressed, cropped, brightened; by hash), sources.tsv
//   imaging-tools duplicate-distances --set DIR   (true and false pairs within each fingerprint distance)
//   imaging-tools duplicate-score --set DIR --groups FILE   (precision and recall of duplicates --json)
//   imaging-tools similar-score --set DIR --db FILE --wardrobe BINARY
//       how often 'wardrobe similar' puts a copy of the query first, each file of the set a query
//   imaging-tools colour-table   (the source of Sources/Imaging/ColourTableCells.swift)
import Foundation
import Imaging
import Training

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    fail("usage: imaging-tools contact-sheet [--recipe NAME|all] [--per-folder N] [--out FILE.png] DIR... | fixtures [--root DIR]")
}
arguments.removeFirst()

@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name) else { return nil }
    guard index + 1 < arguments.count else { fail("\(name) needs a value") }
    let value = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    return value
}

do {
    switch command {
    case "contact-sheet":
        let recipeName = option("--recipe") ?? "all"
        let perFolder = Int(option("--per-folder") ?? "6") ?? 6
        let out = option("--out") ?? "contact-sheet.png"
        let recipes = recipeName == "all" ? PrepRecipes.all : [try PrepRecipes.named(recipeName)]
        guard !arguments.isEmpty else { fail("contact-sheet needs at least one folder or file") }
        try ContactSheetTool(recipes: recipes, perFolder: perFolder).write(inputs: arguments, to: out)
    case "fixtures":
        try FixtureWriter(root: option("--root") ?? ".").write()
    case "colour-table":
        print(ColourTableSource.text())
    case "colours":
        guard let labels = option("--labels"), let photos = option("--photos") else { fail("colours needs --labels and --photos") }
        try ColourAgreement(labels: labels, photos: photos).report()
    case "colour-sheet":
        guard let labels = option("--labels"), let photos = option("--photos") else { fail("colour-sheet needs --labels and --photos") }
        let all = arguments.contains("--all")
        try ColourSheet(labels: labels, photos: photos, all: all).write(to: option("--out") ?? "colour-sheet.png")
    case "duplicate-set":
        guard let out = option("--out"), !arguments.isEmpty else { fail("duplicate-set needs --out DIR and photo folders") }
        try DuplicateSet(photos: arguments, out: out).write()
    case "duplicate-distances":
        guard let set = option("--set") else { fail("duplicate-distances needs --set DIR") }
        try DuplicateDistances(set: set).report()
    case "duplicate-score":
        guard let set = option("--set"), let groups = option("--groups") else { fail("duplicate-score needs --set DIR and --groups FILE") }
        try DuplicateScore(set: set, groups: groups).report()
    case "similar-score":
        guard let set = option("--set"), let db = option("--db"), let wardrobe = option("--wardrobe") else {
            fail("similar-score needs --set DIR, --db FILE and --wardrobe BINARY")
        }
        try SimilarScore(set: set, db: db, wardrobe: wardrobe).report()
    case "format-fixtures":
        try FormatFixtureWriter(out: option("--out") ?? "Fixtures/formats").write()
    default:
        fail("unknown command '\(command)'")
    }
} catch {
    fail("\(error)")
}
