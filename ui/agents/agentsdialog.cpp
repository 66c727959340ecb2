#include "ui/agents/agentsdialog.h"

#include "ui/agents/agentspage.h"

#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QScreen>
#include <QVBoxLayout>

namespace Loopscope::Ui {

AgentsDialog::AgentsDialog(AgentStore *store, const QStringList &profileNames, const QStringList &toolNames,
                           QWidget *parent)
    : QDialog(parent)
    , m_page(new AgentsPage(store, profileNames, toolNames, this))
{
    setWindowTitle(tr("Agents"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_page, 1);
    layout->addWidget(buttons);
    // Roomy where there is room, never larger than the screen (the editor scrolls).
    const QFontMetrics metrics = fontMetrics();
    QSize size(metrics.averageCharWidth() * 150, metrics.lineSpacing() * 40);
    if (const QScreen *screen = parent ? parent->screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableSize() * 9 / 10);
    resize(size);
}

} // namespace Loopscope::Ui
