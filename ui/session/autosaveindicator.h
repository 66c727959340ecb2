#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QToolButton;
QT_END_NAMESPACE

namespace Loopscope {
class SessionDocument;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    A failed autosave in the status bar for as long as it lasts: a warning
    with its cause and a "Save As…" button, shown from the failure until a
    write into the library succeeds (the autosaver retries on its own) or the
    conversation is replaced. A passing message would be gone before anyone
    read it, and the turns it is about would be lost on quitting.
*/
class AutosaveIndicator final : public QWidget
{
    Q_OBJECT

public:
    // \a saveAs: what the button does (the File menu's Save As).
    AutosaveIndicator(SessionDocument *document, QAction *saveAs, QWidget *parent = nullptr);

    QString text() const; // what it says, empty while hidden; for tests
    QToolButton *saveAsButton() const { return m_saveAs; }

private:
    void showError(const QString &error);

    QLabel *m_icon;
    QLabel *m_label;
    QToolButton *m_saveAs;
};

} // namespace Loopscope::Ui
