#pragma once

#include "ui/settings/settingspage.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    Settings → Appearance: how the composer sends (Enter or Ctrl+Enter) and
    whether the last session reopens on start; and a note that the colours
    follow the desktop's light or dark palette.
*/
class AppearancePage final : public SettingsPage
{
    Q_OBJECT

public:
    explicit AppearancePage(QWidget *parent = nullptr);

    void load(const AppSettings &settings) override;
    void save(AppSettings &settings) override;

private:
    QCheckBox *m_sendOnEnter;
    QCheckBox *m_reopenLastSession;
};

} // namespace Loopscope::Ui
