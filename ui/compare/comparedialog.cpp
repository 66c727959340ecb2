#include "ui/compare/comparedialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

constexpr int OpenItem = -1; // the "Browse…" item's data
// Library sessions not read yet have data FirstUnread - their index.
constexpr int FirstUnread = -2;

QString turnText(const ComparedTurn &turn)
{
    QString question = turn.question.simplified();
    if (question.size() > 70)
        question = question.left(69) + u'…';
    //: A turn in the compare dialog: its number and question
    return CompareDialog::tr("%1. %2").arg(turn.number).arg(question);
}

} // namespace

CompareDialog::CompareDialog(const QList<ComparedTurn> &current, const QString &currentName, int leftTurn,
                             QWidget *parent)
    : QDialog(parent)
    , m_error(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Compare Turns"));
    m_sessions.append({currentName, current});

    auto *columns = new QHBoxLayout;
    for (int side = 0; side < 2; ++side) {
        Side &s = m_sides[side];
        s.session = new QComboBox(this);
        s.session->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        s.session->setMinimumContentsLength(24);
        s.session->addItem(tr("This session (%n turn(s))", nullptr, int(current.size())), 0);
        s.session->addItem(tr("Browse for a session file…"), OpenItem);
        s.turn = createTurnBox();
        auto *group = new QGroupBox(side == 0 ? tr("Run A") : tr("Run B"), this);
        auto *form = new QFormLayout(group);
        form->addRow(tr("&Session:"), s.session);
        form->addRow(tr("&Turn:"), s.turn);
        columns->addWidget(group);
        connect(s.session, &QComboBox::activated, this, [this, side] { onSessionChosen(side); });
        fillTurns(side);
    }
    for (const Side &s : m_sides)
        connect(s.turn, &QComboBox::currentIndexChanged, this, &CompareDialog::updateButtons);
    if (!current.isEmpty()) {
        const int left = std::clamp(leftTurn, 0, int(current.size()) - 1);
        m_sides[0].turn->setCurrentIndex(left);
        m_sides[1].turn->setCurrentIndex(left > 0 ? left - 1 : std::min(1, int(current.size()) - 1));
    }

    m_error->setWordWrap(true);
    m_error->setVisible(false);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Compare"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(&m_loading, &QFutureWatcher<ComparedSession>::finished, this,
            [this] { onLoaded(m_loadingSide); });

    auto *hint = new QLabel(tr("Pick two turns, e.g. a replay and its recording, or the same question asked "
                               "of two models."),
                            this);
    hint->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addLayout(columns);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    updateButtons();
}

CompareDialog::~CompareDialog()
{
    m_loading.waitForFinished();
}

QComboBox *CompareDialog::createTurnBox()
{
    auto *box = new QComboBox(this);
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(24);
    return box;
}

std::optional<ComparedTurn> CompareDialog::leftTurn() const
{
    return turnOf(0);
}

std::optional<ComparedTurn> CompareDialog::rightTurn() const
{
    return turnOf(1);
}

std::optional<ComparedTurn> CompareDialog::turnOf(int side) const
{
    const int session = m_sides[side].session->currentData().toInt();
    const int turn = m_sides[side].turn->currentIndex();
    if (session < 0 || session >= m_sessions.size() || turn < 0
        || turn >= m_sessions.at(session).turns.size())
        return std::nullopt;
    return m_sessions.at(session).turns.at(turn);
}

void CompareDialog::addTurns(const QString &name, const QList<ComparedTurn> &turns)
{
    if (turns.isEmpty())
        return;
    const int index = int(m_sessions.size());
    m_sessions.append({name, turns});
    // After this session and the other turns in hand, before the library's files.
    for (Side &s : m_sides) {
        int row = 1;
        while (row < s.session->count() && s.session->itemData(row).toInt() > 0)
            ++row;
        s.session->insertItem(row, tr("%1 (%n turn(s))", nullptr, int(turns.size())).arg(name), index);
    }
}

void CompareDialog::addLibrarySession(const QString &label, const QString &path)
{
    const int code = FirstUnread - int(m_libraryPaths.size());
    m_libraryPaths.append(path);
    for (Side &s : m_sides) {
        s.session->insertItem(insertionRow(s.session), label, code);
        s.session->setItemData(s.session->count() - 2, path, Qt::ToolTipRole);
    }
}

int CompareDialog::insertionRow(const QComboBox *box) const
{
    // "Browse…" stays last.
    return box->count() - 1;
}

void CompareDialog::onSessionChosen(int side)
{
    Side &s = m_sides[side];
    const int data = s.session->currentData().toInt();
    if (data <= FirstUnread) {
        // Read when chosen; the item takes the session's turns once they are in.
        const QString path = m_libraryPaths.value(FirstUnread - data);
        s.session->setCurrentIndex(s.lastSession);
        addSessionFile(side, path);
        return;
    }
    if (data != OpenItem) {
        s.lastSession = s.session->currentIndex();
        fillTurns(side);
        return;
    }
    s.session->setCurrentIndex(s.lastSession);
    // Window-modal and asynchronous: no nested event loop.
    auto *dialog = new QFileDialog(this, tr("Compare With a Session"), m_libraryFolder,
                                   tr("Loopscope sessions (*.loopscope.json);;All files (*)"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, side](const QString &path) { addSessionFile(side, path); });
    dialog->open();
}

void CompareDialog::addSessionFile(int side, const QString &path)
{
    if (m_loading.isRunning())
        return;
    m_loadingSide = side;
    m_error->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    m_error->setVisible(true);
    m_sides[side].session->setEnabled(false);
    updateButtons();
    m_loading.setFuture(QtConcurrent::run(&ComparedSession::load, path));
}

void CompareDialog::onLoaded(int side)
{
    ComparedSession loaded = m_loading.result();
    m_sides[side].session->setEnabled(true);
    // Named as a person knows it, never by the library's time-stamped file name.
    const QString name = ComparedSession::label(loaded.title, loaded.updated, loaded.path);
    loaded.renameTurns(name);
    if (!loaded.isValid() || loaded.turns.isEmpty()) {
        m_error->setText(loaded.isValid() ? tr("%1 has no turns.").arg(name)
                                          : tr("Cannot read %1: %2").arg(name, loaded.error));
        updateButtons();
        emit sessionLoaded(loaded.path, false);
        return;
    }
    m_error->setVisible(false);
    const int index = int(m_sessions.size());
    m_sessions.append({name, loaded.turns});
    const QString text = tr("%1 (%n turn(s))", nullptr, int(loaded.turns.size())).arg(name);
    const int unread = int(m_libraryPaths.indexOf(loaded.path));
    for (Side &s : m_sides) {
        // A library session offered unread becomes the one read; a browsed file comes before "Browse…".
        const int row = unread >= 0 ? s.session->findData(FirstUnread - unread) : -1;
        if (row >= 0) {
            s.session->setItemData(row, index);
            s.session->setItemText(row, text);
        } else {
            s.session->insertItem(insertionRow(s.session), text, index);
        }
    }
    Side &s = m_sides[side];
    s.session->setCurrentIndex(s.session->findData(index));
    s.lastSession = s.session->currentIndex();
    fillTurns(side);
    s.turn->setCurrentIndex(s.turn->count() - 1); // the last turn, as `loopscope diff` takes
    updateButtons();
    emit sessionLoaded(loaded.path, true);
}

void CompareDialog::fillTurns(int side)
{
    Side &s = m_sides[side];
    const int session = s.session->currentData().toInt();
    s.turn->clear();
    if (session < 0 || session >= m_sessions.size())
        return;
    for (const ComparedTurn &turn : m_sessions.at(session).turns)
        s.turn->addItem(turnText(turn));
}

void CompareDialog::updateButtons()
{
    m_buttons->button(QDialogButtonBox::Ok)
        ->setEnabled(!m_loading.isRunning() && leftTurn().has_value() && rightTurn().has_value());
}

} // namespace Loopscope::Ui
