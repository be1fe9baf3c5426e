import Wardrobe

extension WardrobeSite {
    /// Undoes the act the ledger keeps under `id` (a form's `undo`), once: every image's
    /// person label put back as it was before. With `image` (a one-image form's `id`), the act
    /// must be that image's alone. An id this server did not give, or whose act is undone
    /// already, undoes nothing and is a bad request. The act undone.
    @discardableResult
    func undo(_ id: String?, image: Int64? = nil) throws -> UndoLedger.Act {
        guard let id, let act = undos.act(id) else {
            throw SiteError.badRequest("nothing to undo: this server made no such act, or it is undone already")
        }
        if let image, act.map(\.image) != [image] {
            throw SiteError.badRequest("the act to undo is not this image's")
        }
        guard let taken = undos.take(id) else {
            throw SiteError.badRequest("nothing to undo: it is undone already")
        }
        do {
            try SiteError.acting(on: act.map(\.image), outcome: "nothing was undone", in: catalogue) {
                try catalogue.restore(taken, command: "serve")
            }
        } catch {
            undos.putBack(id, taken)
            throw error
        }
        return taken
    }

    /// After an act, on the page it went back to: "Saved" and an Undo button (key u) for the
    /// act the ledger keeps under the page's `undo`; nothing for any other value, or on a
    /// read-only server. `back(images)`: where Undo leads, given the images acted on.
    func undoNotice(_ id: String?, back: ([Int64]) -> String) -> HTML {
        guard !readOnly, let id, let act = undos.act(id) else { return "" }
        let images = act.map(\.image)
        if images.count == 1 {
            return LabelForms.undoNotice(id: images[0], undo: id, back: back(images), token: guardian.token)
        }
        return SelectionForms.undoNotice(id, count: images.count, token: guardian.token, back: back(images))
    }
}
