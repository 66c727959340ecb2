#include "ui/settings/appearancepage.h"

#include "agent/config/appsettings.h"
#include "ui/settings/settingswidgets.h"

#include <QCheckBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

AppearancePage::AppearancePage(QWidget *parent)
    : SettingsPage(parent)
    , m_sendOnEnter(named(new QCheckBox(tr("Send with &Enter (Shift+Enter starts a new line)"), this),
                          u"sendOnEnterCheck"_s, tr("Send with Enter")))
    , m_reopenLastSession(named(new QCheckBox(tr("&Reopen the last session on start"), this),
                                u"reopenLastSessionCheck"_s, tr("Reopen the last session on start")))
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_sendOnEnter);
    layout->addWidget(hintLabel(tr("Ctrl+Enter always sends."), this));
    layout->addSpacing(fontMetrics().lineSpacing());
    layout->addWidget(m_reopenLastSession);
    layout->addWidget(hintLabel(tr("Otherwise Loopscope starts with a new session; every session stays in "
                                   "the session library."),
                                this));
    layout->addSpacing(fontMetrics().lineSpacing());
    auto *palette = hintLabel(tr("Loopscope follows your system's light or dark palette. "
                                 "To switch, change the colour scheme in your desktop settings."),
                              this);
    palette->setObjectName(u"paletteNote"_s);
    palette->setForegroundRole(QPalette::WindowText); // information, not a hint

    layout->addWidget(palette);
    layout->addStretch(1);
}

void AppearancePage::load(const AppSettings &settings)
{
    m_sendOnEnter->setChecked(settings.sendOnEnter());
    m_reopenLastSession->setChecked(settings.reopenLastSession());
}

void AppearancePage::save(AppSettings &settings)
{
    settings.setSendOnEnter(m_sendOnEnter->isChecked());
    settings.setReopenLastSession(m_reopenLastSession->isChecked());
}

} // namespace Loopscope::Ui
