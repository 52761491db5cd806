/// What the manifest's `defaults` give every job.
struct JobDefaults: Sendable {
  var view: ViewSpec?
  var settings = SettingsPatch()
}
