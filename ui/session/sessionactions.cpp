#include "ui/session/sessionactions.h"

#include "agent/export/exportfile.h"
#include "agent/session/chatsession.h"
#include "agent/session/filenamestem.h"
#include "agent/session/sessiondocument.h"
#include "agent/transcript/transcriptimport.h"

#include <QAbstractButton>
#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

const QString recentKey = u"sessions/recent"_s;
// Path -> the session's title when it was last opened or saved, for the menu.
const QString recentTitlesKey = u"sessions/recentTitles"_s;
const QString lastSessionKey = u"sessions/last"_s;
constexpr int maxRecent = 10;
constexpr const char *sessionFilter
    = QT_TRANSLATE_NOOP("Loopscope::Ui::SessionActions", "Loopscope sessions (*.loopscope.json)");

QString withSessionSuffix(QString path)
{
    if (!path.endsWith(u".loopscope.json"_s, Qt::CaseInsensitive))
        path += path.endsWith(u".json"_s, Qt::CaseInsensitive) ? QString() : u".loopscope.json"_s;
    return path;
}

} // namespace

SessionActions::SessionActions(SessionDocument *document, QSettings *state, QWidget *window)
    : QObject(window)
    , m_document(document)
    , m_state(state)
    , m_window(window)
    , m_new(new QAction(QIcon::fromTheme(u"document-new"_s), tr("&New Session"), this))
    , m_open(new QAction(QIcon::fromTheme(u"document-open"_s), tr("&Open…"), this))
    , m_recentMenu(new QMenu(tr("Open &Recent"), window))
    , m_save(new QAction(QIcon::fromTheme(u"document-save"_s), tr("&Save"), this))
    , m_saveAs(new QAction(QIcon::fromTheme(u"document-save-as"_s), tr("Save &As…"), this))
    , m_import(new QAction(tr("&Import OpenAI Messages…"), this))
    , m_exportMenu(new QMenu(tr("&Export"), window))
{
    m_new->setShortcut(QKeySequence::New);
    m_new->setToolTip(tr("Start a new, empty session (Ctrl+N)"));
    m_open->setShortcut(QKeySequence::Open);
    m_save->setShortcut(QKeySequence::Save);
    // Ctrl+Shift+S first, so that the menu shows it: some platforms (the generic theme) bind none.
    QList<QKeySequence> saveAsKeys{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)};
    for (const QKeySequence &key : QKeySequence::keyBindings(QKeySequence::SaveAs)) {
        if (!saveAsKeys.contains(key))
            saveAsKeys.append(key);
    }
    m_saveAs->setShortcuts(saveAsKeys);
    connect(m_new, &QAction::triggered, this,
            [this] { whenChangesAreSettled([this] { m_document->newSession(); }); });
    connect(m_open, &QAction::triggered, this, &SessionActions::chooseFileToOpen);
    connect(m_save, &QAction::triggered, this, &SessionActions::save);
    connect(m_saveAs, &QAction::triggered, this, [this] { saveAs(); });
    connect(m_import, &QAction::triggered, this, &SessionActions::chooseFileToImport);
    m_exportMenu->addAction(tr("As &Markdown…"), this, [this] { exportAs(u"md"_s); });
    m_exportMenu->addAction(tr("As Standalone &HTML…"), this, [this] { exportAs(u"html"_s); });
    m_exportMenu->addAction(tr("Trace as &OpenTelemetry (OTLP/JSON)…"), this,
                            [this] { exportAs(u"otlp"_s); });

    // Another session cannot come in while a turn runs.
    connect(m_document->session(), &ChatSession::busyChanged, this, [this](bool busy) {
        for (QAction *action : {m_new, m_open, m_import})
            action->setEnabled(!busy);
    });
    // What to reopen on the next start: another conversation forgets the last one until it has a file.
    connect(m_document->session(), &ChatSession::cleared, this, [this] { setLastSession({}); });
    connect(m_document->session(), &ChatSession::restored, this, [this] { setLastSession({}); });
    connect(m_document, &SessionDocument::saved, this, &SessionActions::setLastSession);
    connect(m_document, &SessionDocument::autosaved, this, [this](const QString &path) {
        // A file from elsewhere reopens as it is on disk; its copy stays in the library.
        const QString own = m_document->path();
        if (own.isEmpty() || own.startsWith(u':') || QFileInfo(own) == QFileInfo(path))
            setLastSession(path);
    });
    connect(m_document, &SessionDocument::opened, this, [this](const QString &path, int upgradedFrom) {
        if (!path.isEmpty() && !path.startsWith(u':')) {
            addRecent(path);
            setLastSession(path);
        }
        // Named by its title: library files are named by a time stamp the user never chose.
        emit message(upgradedFrom > 0
                         ? tr("Opened \"%1\" (upgraded from format %2; saving writes the new format).")
                               .arg(m_document->displayName())
                               .arg(upgradedFrom)
                         : tr("Opened \"%1\".").arg(m_document->displayName()));
    });
    connect(m_document, &SessionDocument::openFailed, this,
            [this](const QString &path, const QString &error) {
                showError(tr("Cannot open the session"),
                          tr("%1 could not be opened: %2\n\nThe conversation you had open is unchanged.")
                              .arg(QFileInfo(path).fileName(), error));
            });
    rebuildRecentMenu();
}

QStringList SessionActions::recentFiles() const
{
    return m_state->value(recentKey).toStringList();
}

QString SessionActions::lastSession() const
{
    const QString path = m_state->value(lastSessionKey).toString();
    return !path.isEmpty() && QFileInfo::exists(path) ? path : QString();
}

void SessionActions::setLastSession(const QString &path)
{
    if (path.isEmpty())
        m_state->remove(lastSessionKey);
    else
        m_state->setValue(lastSessionKey, QFileInfo(path).absoluteFilePath());
}

void SessionActions::addRecent(const QString &path)
{
    QStringList recent = recentFiles();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > maxRecent)
        recent.removeLast();
    m_state->setValue(recentKey, recent);
    QVariantMap titles = m_state->value(recentTitlesKey).toMap();
    titles.insert(path, m_document->displayName());
    for (auto it = titles.begin(); it != titles.end();)
        it = recent.contains(it.key()) ? std::next(it) : titles.erase(it);
    m_state->setValue(recentTitlesKey, titles);
    rebuildRecentMenu();
}

void SessionActions::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    const QVariantMap titles = m_state->value(recentTitlesKey).toMap();
    for (const QString &path : recent) {
        // Library files are named by id: the title is what the user knows a session by.
        QString title = titles.value(path).toString();
        if (title.isEmpty())
            title = QFileInfo(path).fileName();
        QAction *action
            = m_recentMenu->addAction(title.replace(u'&', u"&&"_s), this, [this, path] { openFile(path); });
        action->setToolTip(path);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear the List"), this, [this] {
            m_state->remove(recentKey);
            m_state->remove(recentTitlesKey);
            rebuildRecentMenu();
        });
    }
}

void SessionActions::whenChangesAreSettled(const std::function<void()> &then)
{
    if (!m_document->isModified()) {
        then();
        return;
    }
    // Turns in no file at all (the library could not be written): said as they are, and saved
    // elsewhere, since the library and maybe the file's own folder are what failed.
    const int lost = m_document->unsavedTurns();
    const QString autosaveError = m_document->autosaveError();
    const bool elsewhere = lost > 0 && !autosaveError.isEmpty();
    auto *box = new QMessageBox(
        elsewhere ? QMessageBox::Warning : QMessageBox::Question, tr("Save the changes?"),
        elsewhere ? tr("%n finished turn(s) of \"%1\" are not saved anywhere.", nullptr, lost)
                        .arg(m_document->displayName())
                  : tr("\"%1\" has changes that are not saved in a file.").arg(m_document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_window);
    if (elsewhere) {
        box->setInformativeText(tr("Autosave into the session library failed: %1\n\nSave As writes the "
                                   "conversation to a file elsewhere; Discard loses what is not saved.")
                                    .arg(autosaveError));
        box->button(QMessageBox::Save)->setText(tr("Save &As…"));
        box->button(QMessageBox::Discard)->setText(tr("&Discard %n Turn(s)", nullptr, lost));
    } else if (lost == 0) {
        box->setInformativeText(tr("Every finished turn is also kept in the session library."));
    }
    box->setDefaultButton(QMessageBox::Save);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, then, elsewhere](int) {
        const QMessageBox::StandardButton choice = box->standardButton(box->clickedButton());
        if (choice == QMessageBox::Discard) {
            then();
        } else if (choice == QMessageBox::Save) {
            if (elsewhere || m_document->path().isEmpty() || m_document->path().startsWith(u':'))
                saveAs(then);
            else if (writeTo(m_document->path()))
                then();
        }
    });
    box->open();
}

void SessionActions::openFile(const QString &path)
{
    whenChangesAreSettled([this, path] { m_document->open(path); });
}

void SessionActions::openExample(const QString &resourcePath)
{
    whenChangesAreSettled([this, resourcePath] {
        const TranscriptLoadResult result = TranscriptFile::load(resourcePath);
        QString error = result.error;
        if (!result.transcript || !m_document->openTranscript(*result.transcript, {}, &error)) {
            showError(tr("Cannot open the example"), error);
            return;
        }
        emit message(tr("Opened the example \"%1\": replay it from the Debug menu, no provider needed.")
                         .arg(result.transcript->title));
    });
}

void SessionActions::chooseFileToOpen()
{
    whenChangesAreSettled([this] {
        // The library first: that is where every conversation is kept.
        const QString folder
            = !m_libraryFolder.isEmpty() ? m_libraryFolder : QFileInfo(recentFiles().value(0)).path();
        auto *dialog = new QFileDialog(m_window, tr("Open Session"), folder,
                                       tr(sessionFilter) + u";;"_s + tr("JSON files (*.json)"));
        dialog->setFileMode(QFileDialog::ExistingFile);
        dialog->setObjectName(u"openSessionDialog"_s);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this,
                [this](const QString &path) { m_document->open(path); });
        dialog->open();
    });
}

void SessionActions::save()
{
    const QString path = m_document->path();
    if (path.isEmpty() || path.startsWith(u':'))
        saveAs();
    else
        writeTo(path);
}

void SessionActions::saveAs(const std::function<void()> &then)
{
    const QString suggestion
        = QFileInfo(m_document->path()).path().isEmpty() || m_document->path().startsWith(u':')
              ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
              : QFileInfo(m_document->path()).path();
    auto *dialog = new QFileDialog(m_window, tr("Save Session As"), suggestion, tr(sessionFilter));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(u"loopscope.json"_s);
    dialog->selectFile(fileNameStem(m_document->displayName()) + u".loopscope.json"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this, then](const QString &path) {
        if (writeTo(withSessionSuffix(path)) && then)
            then();
    });
    dialog->open();
}

bool SessionActions::writeTo(const QString &path)
{
    QString error;
    if (!m_document->save(path, &error)) {
        showError(tr("Cannot save the session"),
                  tr("%1 could not be written: %2\n\nNothing was lost: the conversation is still open.")
                      .arg(QFileInfo(path).fileName(), error));
        return false;
    }
    addRecent(path);
    emit message(tr("Saved %1.").arg(QFileInfo(path).fileName()));
    return true;
}

void SessionActions::chooseFileToImport()
{
    whenChangesAreSettled([this] {
        auto *dialog = new QFileDialog(m_window, tr("Import OpenAI Messages"), QString(),
                                       tr("JSON files (*.json);;All files (*)"));
        dialog->setFileMode(QFileDialog::ExistingFile);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
            const TranscriptLoadResult result = TranscriptImport::loadOpenAiMessages(path);
            QString error = result.error;
            if (!result.transcript || !m_document->openTranscript(*result.transcript, {}, &error)) {
                showError(tr("Cannot import"), tr("%1: %2").arg(QFileInfo(path).fileName(), error));
                return;
            }
            emit message(tr("Imported %1 messages.").arg(result.transcript->messages.size()));
        });
        dialog->open();
    });
}

void SessionActions::exportAs(const QString &format)
{
    const QString filter = format == u"md"     ? tr("Markdown (*.md)")
                           : format == u"html" ? tr("HTML (*.html)")
                                               : tr("OTLP JSON (*.json)");
    const QString suffix = format == u"otlp" ? u"otlp.json"_s : format;
    auto *dialog = new QFileDialog(m_window, tr("Export"), QString(), filter);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    dialog->selectFile(fileNameStem(m_document->displayName()) + u'.' + suffix);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this, format](const QString &path) {
        const ExportFormat exportFormat = exportFormatNamed(format).value_or(ExportFormat::OtlpJson);
        QString error;
        if (!exportTranscriptToFile(m_document->session()->toTranscript(), exportFormat, path, &error)) {
            showError(tr("Cannot export"), error);
            return;
        }
        emit message(tr("Exported to %1.").arg(QFileInfo(path).fileName()));
    });
    dialog->open();
}

void SessionActions::showError(const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace Loopscope::Ui
