#pragma once

#include <QWidget>

namespace Loopscope {
class AppSettings;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    A page of the settings dialog that edits the AppSettings, in the manner of
    Kate's KTextEditor::ConfigPage and Qt Creator's IOptionsPage: it shows the
    stored values, says what must be fixed before they can be stored, and writes
    what it shows. The dialog only assembles the pages and calls them; the pages
    with stores of their own (providers and their keys, MCP servers) follow the
    same shape with their own load and save.
*/
class SettingsPage : public QWidget
{
    Q_OBJECT

public:
    using QWidget::QWidget;

    // Shows the values stored in \a settings.
    virtual void load(const AppSettings &settings) = 0;
    // Empty when what the page shows can be stored; else a sentence saying what to fix.
    virtual QString validationError() const { return {}; }
    // Puts the cursor where validationError() points.
    virtual void focusProblem() {}
    // Writes what the page shows into \a settings; only after an empty validationError().
    virtual void save(AppSettings &settings) = 0;
};

} // namespace Loopscope::Ui
