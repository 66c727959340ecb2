#pragma once

#include <QCheckBox>
#include <QPointer>

QT_BEGIN_NAMESPACE
class QMessageBox;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    "Store … in a file only you can read", the way around a desktop without a
    keychain (what gh and docker do). A click ticks it only once the user has
    read that the file is unencrypted and agreed; unticking needs no warning.
    chosen() reports the user's choices, not setChecked() from code. Shared by
    the provider profiles and the MCP servers, so both ask the same way.
*/
class KeyFileCheckBox final : public QCheckBox
{
    Q_OBJECT

public:
    // warningText: what goes to the file, why a keychain would be better.
    KeyFileCheckBox(const QString &text, const QString &warningText, QWidget *parent);

    // The warning while it is open, else nullptr.
    QMessageBox *warning() const;
    // Shows a stored choice: no warning, no chosen(); a warning still open is closed.
    void showChoice(bool inFile);

signals:
    void chosen(bool inFile);

protected:
    void nextCheckState() override;

private:
    QString m_warningText;
    QPointer<QMessageBox> m_warning;
};

} // namespace Loopscope::Ui
