#pragma once

#include "agent/compare/comparedturn.h"

#include <QDialog>
#include <QFutureWatcher>

#include <optional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QDialogButtonBox;
class QLabel;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    Picks the two turns to compare: for run A and run B, a session (this
    one, an open replay, a session of the library by its title and time, or
    a file browsed for, the picker starting in the library) and one of its
    turns. Session files are read off the GUI thread when chosen; a file that
    cannot be read says why and is not offered.
*/
class CompareDialog final : public QDialog
{
    Q_OBJECT

public:
    // \a current: the turns of the session in the window, named \a currentName; A starts at
    // \a leftTurn (an index into them) and B at the turn before it (or after, for the first).
    CompareDialog(const QList<ComparedTurn> &current, const QString &currentName, int leftTurn,
                  QWidget *parent = nullptr);
    ~CompareDialog() override;

    // The chosen turns; nullopt until both sides have one.
    std::optional<ComparedTurn> leftTurn() const;
    std::optional<ComparedTurn> rightTurn() const;

    QComboBox *sessionBox(int side) const { return m_sides[side].session; }
    QComboBox *turnBox(int side) const { return m_sides[side].turn; }
    QLabel *errorLabel() const { return m_error; }

    // Reads \a path off the GUI thread and offers its turns on \a side; sessionLoaded() follows.
    void addSessionFile(int side, const QString &path);
    // Offers turns already in hand (an open replay's) on both sides, after this session's.
    void addTurns(const QString &name, const QList<ComparedTurn> &turns);
    // Offers a session file by \a label (its title and time), read when it is chosen.
    void addLibrarySession(const QString &label, const QString &path);
    // Where "Browse…" starts.
    void setLibraryFolder(const QString &folder) { m_libraryFolder = folder; }

signals:
    void sessionLoaded(const QString &path, bool ok);

private:
    struct Side
    {
        QComboBox *session = nullptr;
        QComboBox *turn = nullptr;
        int lastSession = 0; // to go back to when "Open…" is cancelled
    };
    struct Session
    {
        QString name;
        QList<ComparedTurn> turns;
    };

    QComboBox *createTurnBox();
    void onSessionChosen(int side);
    void fillTurns(int side);
    void onLoaded(int side);
    void updateButtons();
    std::optional<ComparedTurn> turnOf(int side) const;

    int insertionRow(const QComboBox *box) const;

    QList<Session> m_sessions;  // the sessions read, by the combo boxes' item data
    QStringList m_libraryPaths; // sessions offered unread: item data -2 - their index
    QString m_libraryFolder;
    Side m_sides[2];
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
    QFutureWatcher<ComparedSession> m_loading;
    int m_loadingSide = 0;
};

} // namespace Loopscope::Ui
