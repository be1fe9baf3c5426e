import Files
import Foundation
import Wardrobe

/// `/image/ID`: the thumbnail large, the 28x28 tensor the model saw, the top
/// three with bars, the buttons that correct the label (with review's keys,
/// and undo), the form that sets the garment's colour, the whole history
/// (classifications and a person's acts) and every path with its state.
struct ImagePage {
    let site: WardrobeSite
    let id: Int64
    /// `undo`, after an act on this page: what names the act to undo it (see `UndoLedger`).
    let undo: String?

    init(site: WardrobeSite, request: HTTPRequest, id: Int64) throws {
        self.site = site
        self.id = id
        try SiteError.refuseUnknown(request.query, known: ["undo"])
        undo = request.query["undo"]
    }

    func response() throws -> HTTPResponse {
        // By id only: an id that names no image must not fall back to a hash prefix.
        guard try site.catalogue.hasImage(id) else { throw SiteError.noImage("image \(id)") }
        let details = try site.catalogue.details(of: .id(id))
        let name = details.paths.first.map { GalleryPage.fileName($0.path) } ?? "Image \(details.id)"
        let effective = details.effectiveLabel ?? "not classified"
        let who: HTML = details.correctedLabel != nil ? " <span class=\"person\">(labelled by a person)</span>" : ""
        let forms: HTML = site.readOnly ? "" : """
            <h2>Correct the label</h2>
            \(LabelForms.buttons(id: id, back: "/image/\(details.id)", token: site.guardian.token,
                                  modelLabel: details.label, corrected: details.correctedLabel != nil, keys: true, undoable: true))
            <p class="muted">Keys: 1–9 and 0 pick a label, n none, Enter confirms the model, u undoes.</p>
            <h2>Set the colour</h2>
            \(ColourForm.html(id: id, colour: details.colour, byPerson: details.personColour != nil, token: site.guardian.token))
            """
        let undoNotice = site.undoNotice(undo) { _ in "/image/\(id)" }
        let recipe = try site.catalogue.tensorRecipe()
        let content: HTML = """
            <h1 class="path">\(text: name)</h1>\(undoNotice)
            <div class="image-layout"><div>
            <a href="/original/\(details.id)?w=1600" title="a larger view, made from the photo's file">\
            <img class="large" src="/thumb/\(text: details.sha256)" alt="\(text: effective): \(text: name)"></a>
            \(ImagePage.views(details))
            </div><div>
            <p><strong>\(text: effective)</strong>\(who)</p>
            \(ImagePage.taken(details))
            \(ImagePage.colour(details))
            \(ImagePage.model(details))
            \(ImagePage.topThree(details))
            <figure><img class="tensor" src="/tensor/\(details.id).png" width="168" height="168" alt="the 28 by 28 input the model sees">
            <figcaption class="muted">What the model sees: 28×28, recipe \(text: recipe)</figcaption></figure>
            \(forms)
            </div></div>
            \(try ImagePage.similar(id, site: site))
            <h2>History</h2>
            \(ImagePage.history(details))
            <h2>Paths</h2>
            \(ImagePage.paths(details))
            <h2>File</h2>
            <p class="path">sha256 \(text: details.sha256)<br>\(text: details.format), \(details.width)×\(details.height), \(details.byteSize) bytes, imported \(text: ImagePage.date(details.firstImported))</p>
            """
        return .html(PageLayout.page(title: name, section: .image, readOnly: site.readOnly, content))
    }

    /// Links to the larger views: each fixed side below the photo's own longest side, then the
    /// photo whole at its own size. A view never enlarges, so a 400x534 photo offered
    /// "960 px · 1600 px", two links to the same 534-pixel picture.
    static func views(_ details: ImageDetails) -> HTML {
        let longest = max(details.width, details.height)
        var links: [HTML] = OpenCatalogue.viewSides.filter { $0 >= 960 && $0 < longest }.map { side in
            "<a href=\"/original/\(details.id)?w=\(side)\">\(side) px</a>"
        }
        if let whole = OpenCatalogue.viewSides.first(where: { $0 >= longest && $0 >= 960 }) {
            links.append("<a href=\"/original/\(details.id)?w=\(whole)\">\(longest) px, its own size</a>")
        }
        return "<p class=\"muted views\">Larger: \(HTML(joining: links, separator: " · ")) (from the photo's file, while it is there unchanged)</p>"
    }

    /// When the photo was taken, as the camera's clock showed it (with its offset from UTC when
    /// the file says), linked to the gallery of the photos taken that day.
    static func taken(_ details: ImageDetails) -> HTML {
        guard let taken = details.taken else { return "" }
        let day = String(taken.prefix(10))
        let next = DateArgument.nextDay(after: day)
        return """
            <p class="taken">Taken <a href="\(Link("/", [("taken-after", day), ("taken-before", next)]))" \
            title="the photos taken that day">\(text: taken.replacingOccurrences(of: "T", with: " "))</a></p>
            """
    }

    /// The garment's colour with its swatch, linked to the gallery of that colour: a person's,
    /// said so, with the measured one beside it; else the measured one with its shares.
    static func colour(_ details: ImageDetails) -> HTML {
        guard let colour = details.colour else { return "" }
        let shares = details.colours.map { "\($0.name) \(GalleryPage.percent($0.share))" }.joined(separator: ", ")
        let measured = details.measuredColour.map { "measured: \($0)\(shares.isEmpty ? "" : " (\(shares))")" }
        let note: HTML = details.personColour != nil
            ? " <span class=\"person\">(set by a person)</span> <span class=\"muted\">\(text: measured)</span>"
            : " <span class=\"muted\">\(text: shares.isEmpty ? nil : "(\(shares))")</span>"
        return """
            <p class="colour">\(Swatch.html(colour, byPerson: details.personColour != nil)) Colour \
            <a href="\(Link("/", [("colour", colour)]))" title="every image of this colour">\(text: colour)</a>\(note)</p>
            """
    }

    /// The images nearest this one (`similar`), each a small card linked to its page with its
    /// label and distance; nothing while it has no fingerprints.
    static func similar(_ id: Int64, site: WardrobeSite) throws -> HTML {
        let report = try site.catalogue.similar(to: .id(id), limit: similarCount)
        guard !report.neighbours.isEmpty else { return "" }
        let cards = report.neighbours.map { neighbour -> HTML in
            let name = neighbour.path.map(GalleryPage.fileName) ?? "image \(neighbour.image)"
            let label = neighbour.label ?? "not classified"
            return """
                <li class="card" data-id="\(neighbour.image)"><a href="/image/\(neighbour.image)" title="\(text: name)">
                <img src="/thumb/\(text: neighbour.sha256)" loading="lazy" width="110" height="110" alt="\(text: label): \(text: name)">
                <div class="caption"><span class="label">\(text: label)</span>\
                <span class="muted distance">\(text: String(format: "%.2f", neighbour.distance))</span></div></a></li>
                """
        }
        return """
            <section class="similar" aria-label="Similar images"><h2>Similar</h2>
            <p class="muted">Nearest first by fingerprints, colour and label (0 is the same); a copy of the photo is usually first.</p>
            <ul class="grid strip">\(cards)</ul></section>
            """
    }

    /// How many images the strip shows.
    static let similarCount = 8

    static func model(_ details: ImageDetails) -> HTML {
        guard let label = details.label, let confidence = details.confidence else {
            return "<p class=\"muted\">No classification yet.</p>"
        }
        return "<p>Model: \(text: label), \(text: GalleryPage.percent(confidence)) sure</p>"
    }

    static func topThree(_ details: ImageDetails) -> HTML {
        let rows = details.top.map { guess -> HTML in
            let value = String(format: "%.3f", guess.probability)
            return """
                <div class="bar"><span>\(text: guess.label)</span><progress max="1" value="\(text: value)">\(text: GalleryPage.percent(guess.probability))</progress>\
                <span>\(text: GalleryPage.percent(guess.probability))</span></div>
                """
        }
        return rows.isEmpty ? "" : "<section aria-label=\"Top three\" class=\"top3\">\(rows)</section>"
    }

    static func history(_ details: ImageDetails) -> HTML {
        let rows = details.timeline.map { event -> HTML in
            switch event {
            case .classification(let entry):
                return """
                    <tr class="classification"><td>\(text: date(entry.classifiedAt))</td><td>\(text: entry.command)</td>\
                    <td>\(text: entry.label) \(text: GalleryPage.percent(entry.confidence))</td><td>\(text: entry.model), \(text: entry.recipe)</td></tr>
                    """
            case .correction(let act):
                let what = act.kind == "clear" ? "cleared the person's label" : "\(act.kind): \(act.label ?? "")"
                return """
                    <tr class="correction person"><td>\(text: date(act.correctedAt))</td><td>\(text: act.command)</td>\
                    <td>\(text: what)</td><td>a person</td></tr>
                    """
            case .colourCorrection(let act):
                let what = act.colour.map { "colour: \($0)" } ?? "cleared the person's colour"
                return """
                    <tr class="correction person"><td>\(text: date(act.correctedAt))</td><td>\(text: act.command)</td>\
                    <td>\(text: what)</td><td>a person</td></tr>
                    """
            }
        }
        return """
            <div class="table-wrap"><table><thead><tr><th>When</th><th>Command</th><th>Label</th><th>By</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """
    }

    static func paths(_ details: ImageDetails) -> HTML {
        let rows = details.paths.map { path -> HTML in
            "<tr><td class=\"path\">\(ImagePage.folderLink(path.path))</td><td>\(path.missing ? "missing" : "present")</td><td>\(text: date(path.lastSeen))</td></tr>"
        }
        return """
            <div class="table-wrap"><table><thead><tr><th>Path</th><th>State</th><th>Last seen</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """
    }

    /// A path with its folder linked to the gallery of that folder.
    static func folderLink(_ path: String) -> HTML {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "\(text: path)" }
        let folder = String(path[..<slash])
        return "<a href=\"\(Link("/", [("folder", folder)]))\" title=\"every image in this folder\">\(text: folder)</a>\(text: String(path[slash...]))"
    }

    /// `2024-05-01 12:34:56 UTC`, on the calendar every time is written in (`ProlepticCalendar`).
    static func date(_ date: Date) -> String {
        let parts = ProlepticCalendar.parts(of: date)
        return parts.dayText + " " + parts.timeText(seconds: true) + " UTC"
    }
}
