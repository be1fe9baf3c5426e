import Wardrobe

/// The gallery's multi-select: a checkbox on each card, all belonging to one
/// POST form (`form="pick"`, so the cards stay outside it) with one label
/// list, Set and Confirm; posted to `/label-many` with the page's token like
/// every other form, so it works without JavaScript. The page after says how
/// many were saved and offers one Undo for all of them: the undo parameter
/// names the act the server keeps (`UndoLedger`), each image's person label
/// before it, and Undo posts that name back.
enum SelectionForms {
    /// The form's id, named by each checkbox.
    static let formID = "pick"
    /// At most this many images in one act: the gallery's largest page.
    static let limit = 200

    /// The field of one image's checkbox (each a name of its own: a form field given twice is refused).
    static func field(_ id: Int64) -> String { "image-\(id)" }

    /// The image ids a form picked, from its `image-N` fields, each with the checkbox's value 1:
    /// any other (`image-5=0`, empty) was taken as picked, so a form that meant to leave an
    /// image out labelled it.
    static func picked(_ form: [String: String]) throws -> [Int64] {
        let ids = try form.filter { $0.key.hasPrefix("image-") }.map { name, value in
            guard let id = try? SiteError.imageID(String(name.dropFirst(6))) else {
                throw SiteError.badRequest("\(name) names no image")
            }
            guard value == "1" else { throw SiteError.badRequest("\(name) is 1 when the image is picked, or not sent") }
            return id
        }
        guard !ids.isEmpty else { throw SiteError.badRequest("no image is selected") }
        guard ids.count <= limit else { throw SiteError.badRequest("at most \(limit) images at once") }
        return ids.sorted()
    }

    /// A card's checkbox.
    static func checkbox(_ item: Gallery.Item) -> HTML {
        """
        <label class="pick"><input type="checkbox" form="\(text: formID)" name="\(text: field(item.image))" value="1"> Select</label>
        """
    }

    /// The form the checkboxes belong to: a label, Set, Confirm.
    static func bar(token: String, back: String) -> HTML {
        let options = (0...LabelMatcher.noneLabel).map { label -> HTML in
            "<option value=\"\(text: LabelMatcher.name(of: label))\">\(text: LabelMatcher.name(of: label))</option>"
        }
        return """
            <form id="\(text: formID)" class="inline bulk" method="post" action="/label-many">\
            <input type="hidden" name="token" value="\(text: token)"><input type="hidden" name="back" value="\(text: back)">\
            <span>Selected images:</span><select name="label" aria-label="label for the selected images">\(options)</select>\
            <button type="submit" name="action" value="label">Set label</button>\
            <button type="submit" name="action" value="confirm">Confirm the model's label</button></form>
            """
    }

    /// After an act on several images: how many, and one Undo for all (key `u`), the act the
    /// server keeps under `undo` (see `UndoLedger`).
    static func undoNotice(_ undo: String, count: Int, token: String, back: String) -> HTML {
        """
        <form class="inline notice" method="post" action="/label-many"><input type="hidden" name="token" value="\(text: token)">\
        <input type="hidden" name="action" value="restore"><input type="hidden" name="undo" value="\(text: undo)">\
        <input type="hidden" name="back" value="\(text: back)">\
        <span>Saved for \(count) image\(count == 1 ? "" : "s").</span><button type="submit" data-key="u"><kbd>u</kbd>Undo</button></form>
        """
    }
}
