#include "mainwindow.h"
#include "trace/trace.h"

#include <QApplication>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Loopscope"));
    QApplication::setOrganizationName(QStringLiteral("Loopscope"));
    QApplication::setApplicationVersion(QStringLiteral(LOOPSCOPE_VERSION));

    Loopscope::Trace trace;
    Loopscope::Ui::MainWindow window(&trace);
    window.show();
    return QApplication::exec();
}
