import Wardrobe

/// `/review`: the images without a person's label, the ones the model is
/// least sure of first (and after the surest, the least sure again); one at a time (keys: 1-9 and 0 for the labels, n
/// for none, Enter to confirm, arrows to move, u to undo) or as a grid (the
/// same keys act on the card the arrows have picked). Every act is a
/// correction in the catalogue at once; without script, every act is a form.
struct ReviewPage {
    let site: WardrobeSite
    let request: HTTPRequest
    /// `view=grid`; else one image at a time.
    let showsGrid: Bool
    /// `step=confirm` (a grid): the images the model is surest of first, to confirm where it
    /// is right; else the least sure first, to correct where it is wrong.
    let confirming: Bool
    /// `at`: the image to show.
    let at: Int64?
    /// `from`: show the image after this place in least-sure order.
    let from: Gallery.Cursor?
    /// `undo`: what names the act just made, to undo it (see `UndoLedger`).
    let undo: String?
    /// The gallery's filters (`label`, `q`, `folder`, `min`, `max`): review only the images
    /// they choose, and keep them in every link.
    let filter: GalleryFilter

    /// Review's own parameters, beside the filters.
    static let parameters: Set = ["view", "step", "at", "from", "undo", "per"]

    /// Reads the query as the gallery reads its own: an empty value is no value, and a value
    /// that means nothing here is a 400 naming the parameter (an unknown `view` and a `from`
    /// that is no page position were passed over, and an `at` that is no image number got
    /// 404). An `undo` that names no act this server keeps is no undo.
    init(site: WardrobeSite, request: HTTPRequest) throws {
        self.site = site
        self.request = request
        // Review takes only the images no person labelled: `corrected` would contradict it.
        guard request.query["corrected"] == nil else {
            throw SiteError.badRequest("corrected is not taken here: review shows the images no person labelled")
        }
        filter = try GalleryFilter(request.query, known: GalleryFilter.choosing.union(ReviewPage.parameters).subtracting(["corrected"]))
        let query = request.query.filter { !$0.value.isEmpty }
        switch query["view"] {
        case nil: showsGrid = false
        case "grid": showsGrid = true
        default: throw SiteError.badRequest("view is grid, or none for one image at a time")
        }
        switch query["step"] {
        case nil, "correct": confirming = false
        case "confirm": confirming = true
        default: throw SiteError.badRequest("step is confirm or correct")
        }
        at = try query["at"].map { text in
            guard let id = try? SiteError.imageID(text) else { throw SiteError.badRequest("at is an image number") }
            return id
        }
        from = try query["from"].map { text in
            guard let cursor = GalleryFilter.cursor(text) else { throw SiteError.badRequest("from is not a page position") }
            return cursor
        }
        undo = query["undo"]
    }

    func response() throws -> HTTPResponse {
        let catalogue = site.catalogue
        if showsGrid || confirming { return try grid() }
        let item: Gallery.Item?
        if let at {
            // An image that is not there is not found, as its own page is.
            guard try catalogue.hasImage(at) else { throw SiteError.noImage("image \(at)") }
            item = try catalogue.item(at)
        } else {
            // The end of the order is not the end of the work: past its last image (after an act
            // on it, or Next from it), review starts again from the least sure. "Nothing left"
            // was said there while hundreds of images had no person's label.
            item = try catalogue.reviewNeighbour(of: from, forward: true, among: filter.imageFilter)
                ?? (from == nil ? nil : try catalogue.reviewNeighbour(of: nil, forward: true, among: filter.imageFilter))
        }
        let undo = undoForm()
        guard let item else {
            let content: HTML = """
                <h1>Review</h1>\(undo)
                <p>\(text: try nothingToReview()) <a href="\(filter.link)">Back to the gallery</a></p>
                """
            return .html(PageLayout.page(title: "Review", section: .review, readOnly: site.readOnly, content))
        }
        let cursor = GalleryFilter.cursor(after: item)
        let previous = try catalogue.reviewNeighbour(of: cursor, forward: false, among: filter.imageFilter)
        let next = try catalogue.reviewNeighbour(of: cursor, forward: true, among: filter.imageFilter)
            ?? catalogue.reviewNeighbour(of: nil, forward: true, among: filter.imageFilter).flatMap { $0.image == item.image ? nil : $0 }
        let details = try catalogue.details(of: .id(item.image))
        let name = item.path.map(GalleryPage.fileName) ?? "image \(item.image)"
        let back = filter.review([("from", GalleryFilter.text(cursor))]).url
        let forms: HTML = site.readOnly ? "<p class=\"muted\">Read-only: labels cannot be changed here.</p>"
            : LabelForms.buttons(id: item.image, back: back, token: site.guardian.token,
                                 modelLabel: LabelMatcher.name(of: item.label), corrected: item.correctedLabel != nil,
                                 keys: true, undoable: true)
        var moves: [HTML] = []
        if let previous {
            moves.append("<a href=\"\(filter.review([("at", String(previous.image))]))\" data-key=\"left\" rel=\"prev\">← Previous</a>")
        }
        if let next {
            moves.append("<a href=\"\(filter.review([("at", String(next.image))]))\" data-key=\"right\" rel=\"next\">Next →</a>")
        }
        let content: HTML = """
            <h1>Review <a class="chip" href="\(filter.review([("view", "grid")]))">Grid</a> \
            <a class="chip" href="\(filter.review([("view", "grid"), ("step", "confirm")]))">Confirm where it is right</a></h1>\(undo)
            \(chosen())
            <div class="review" data-review="single"><div>
            <a href="/image/\(item.image)"><img class="large" src="/thumb/\(text: item.sha256)" alt="\(text: name)"></a>
            <p class="path">\(text: name)</p>
            </div><div>
            <p>The model says <strong>\(text: LabelMatcher.name(of: item.label))</strong>, \(text: GalleryPage.percent(item.confidence)) sure.</p>
            \(ImagePage.topThree(details))
            \(forms)
            <nav class="pager">\(moves)</nav>
            <p class="muted">Keys: 1–9 and 0 pick a label, n none, Enter confirms the model, ← → move, u undoes.</p>
            </div></div>
            """
        return .html(PageLayout.page(title: "Review", section: .review, readOnly: site.readOnly, content))
    }

    /// What the gallery's filters chose, with the way back to those images in the gallery.
    private func chosen() -> HTML {
        guard filter.choosesSome else { return "" }
        var parts: [String] = []
        if let label = filter.label { parts.append(LabelMatcher.name(of: label)) }
        if let search = filter.search { parts.append("“\(search)”") }
        if let folder = filter.folder { parts.append("in \(folder)") }
        if let after = filter.takenAfter { parts.append("taken from \(after.text)") }
        if let before = filter.takenBefore { parts.append("taken before \(before.text)") }
        if filter.minimumPercent != nil || filter.maximumPercent != nil {
            parts.append("\(filter.minimumPercent ?? 0)–\(filter.maximumPercent ?? 100)% sure")
        }
        return """
            <p class="chosen">Only these: \(text: parts.joined(separator: ", ")). \
            <a href="\(filter.link)">See them in the gallery</a> · <a href="\(Link("/review", [("view", showsGrid || confirming ? "grid" : nil), ("step", confirming ? "confirm" : nil)]))">Review all</a></p>
            """
    }

    /// After an act from this page: a button that puts the label back as it was.
    private func undoForm() -> HTML {
        site.undoNotice(undo) { images in
            // Undo leads back to the image in one-at-a-time, to the grid in the grid.
            (confirming ? filter.review([("view", "grid"), ("step", "confirm")])
                : showsGrid ? filter.review([("view", "grid")]) : filter.review([("at", String(images[0]))])).url
        }
    }

    /// Why no image is offered: every image chosen has a person's label, or none is chosen at
    /// all. "Every image has a person's label" was said of a catalogue holding no image (a
    /// first `serve` before any import, or once every image was forgotten) and of filters
    /// that chose none.
    private func nothingToReview() throws -> String {
        let chosen = try site.catalogue.galleryPage(Gallery.Query(filter: filter.imageFilter, order: .uncertain, limit: 1)).items
        if !chosen.isEmpty { return "Nothing left to review: every image \(filter.choosesSome ? "chosen " : "")has a person's label." }
        return filter.choosesSome ? "Nothing to review: these filters choose no image."
            : "Nothing to review: the catalogue holds no image yet; import photos with 'wardrobe import FOLDER'."
    }

    private func grid() throws -> HTTPResponse {
        var unlabelled = filter.imageFilter
        unlabelled.corrected = false
        let items = try site.catalogue.galleryPage(Gallery.Query(filter: unlabelled, order: confirming ? .confident : .uncertain,
                                                                 limit: filter.pageSize)).items
        let per = filter.pageSize == GalleryFilter.defaultPageSize ? nil : String(filter.pageSize)
        let back = filter.review([("view", "grid"), ("step", confirming ? "confirm" : nil), ("per", per)]).url
        let cards = GalleryPage.grid(items) { item in site.readOnly ? "" : ReviewPage.cardForm(item, back: back, token: site.guardian.token) }
        let shown: HTML = items.isEmpty ? "<p>\(text: try nothingToReview())</p>"
            : "<div class=\"review-grid\" data-review=\"grid\">\(cards)</div>"
        let steps: HTML = confirming
            ? "<a class=\"chip\" href=\"\(filter.review([("view", "grid")]))\">Correct where it is wrong</a> <a class=\"chip\" href=\"\(filter.review())\">One at a time</a>"
            : "<a class=\"chip\" href=\"\(filter.review([("view", "grid"), ("step", "confirm")]))\">Confirm where it is right</a> <a class=\"chip\" href=\"\(filter.review())\">One at a time</a>"
        let explained: HTML = confirming
            ? "The \(items.count) images the model is surest of, none labelled by a person yet: confirm (Enter) each it gets "
                + "right. A fine-tune learns what is right only from confirmations; corrections alone teach it that a label is wrong."
            : "The \(items.count) images the model is least sure of, none labelled by a person yet."
        let content: HTML = """
            <h1>\(confirming ? "Confirm where it is right" : "Review") \(steps)</h1>\(undoForm())
            \(chosen())
            <p class="muted">\(explained) \
            Keys: ← → ↑ ↓ pick an image, 1–9 and 0 give it a label, n none, Enter confirms the model, u undoes.</p>
            \(shown)
            """
        return .html(PageLayout.page(title: "Review", section: .review, readOnly: site.readOnly, content))
    }

    /// One card's form: a list of the labels (each option carries its key)
    /// with Set, and Confirm for the model's label; both undoable.
    static func cardForm(_ item: Gallery.Item, back: String, token: String) -> HTML {
        let options = (0...LabelMatcher.noneLabel).map { label -> HTML in
            let name = LabelMatcher.name(of: label)
            let key = LabelForms.key(of: label)
            return label == item.label ? "<option value=\"\(text: name)\" data-key=\"\(text: key)\" selected>\(text: key) \(text: name)</option>"
                : "<option value=\"\(text: name)\" data-key=\"\(text: key)\">\(text: key) \(text: name)</option>"
        }
        return """
            <form class="inline" method="post" action="/label"><input type="hidden" name="token" value="\(text: token)">\
            <input type="hidden" name="id" value="\(item.image)"><input type="hidden" name="back" value="\(text: back)">\
            <input type="hidden" name="undoable" value="1">\
            <select name="label" aria-label="label">\(options)</select><button type="submit" name="action" value="label">Set</button>\
            <button type="submit" name="action" value="confirm">Confirm</button></form>
            """
    }
}
