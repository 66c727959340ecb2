#include "ui/settings/keyfilecheckbox.h"

#include <QMessageBox>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

KeyFileCheckBox::KeyFileCheckBox(const QString &text, const QString &warningText, QWidget *parent)
    : QCheckBox(text, parent)
    , m_warningText(warningText)
{
    setObjectName(u"keyFileCheck"_s);
    setToolTip(tr("Without a keychain: kept unencrypted in a file only your user account can read, as gh "
                  "and docker do."));
}

QMessageBox *KeyFileCheckBox::warning() const
{
    return m_warning;
}

void KeyFileCheckBox::showChoice(bool inFile)
{
    if (m_warning)
        m_warning->reject();
    setChecked(inFile);
}

void KeyFileCheckBox::nextCheckState()
{
    if (isChecked()) {
        setChecked(false);
        emit chosen(false);
        return;
    }
    if (m_warning)
        return; // already asking
    auto *warning = new QMessageBox(QMessageBox::Warning, tr("Store in a File?"), m_warningText,
                                    QMessageBox::NoButton, this);
    warning->setObjectName(u"keyFileWarning"_s);
    warning->setAttribute(Qt::WA_DeleteOnClose);
    warning->addButton(tr("Store in a File"), QMessageBox::AcceptRole);
    warning->setDefaultButton(warning->addButton(QMessageBox::Cancel));
    connect(warning, &QMessageBox::accepted, this, [this] {
        setChecked(true);
        emit chosen(true);
    });
    m_warning = warning;
    warning->open();
}

} // namespace Loopscope::Ui
